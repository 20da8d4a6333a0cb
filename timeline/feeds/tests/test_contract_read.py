from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.safety import services as safety
from timeline.tests.pages import ids


def test_get_status_messages_hides_a_muted_authors_statuses_read_before_the_mute(
    make_user,
):
    reader, author, other = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    graph.follow_user(reader, other)
    muted = posting.post_status(author, "from the muted author")
    kept = posting.post_status(other, "from the other")
    assert ids(feeds.get_status_messages(reader)) == [kept, muted]

    safety.mute(reader, author)

    assert ids(feeds.get_status_messages(reader)) == [kept]
    # The marked page, as the home view reads it, applies the same rule.
    assert ids(feeds.timeline_page(reader).statuses) == [kept]


def test_get_status_messages_of_a_profile_hides_nothing_from_its_owner(make_user):
    owner = make_user().uid
    first = posting.post_status(owner, "one")
    second = posting.post_status(owner, "two")
    assert ids(feeds.get_status_messages(owner, "profile")) == [second, first]
    # Unmarked: no likes and reposts read for the reader; the marked page has them.
    assert "liked" not in feeds.timeline_page(owner, "profile", marked=False).statuses[0]
    assert feeds.timeline_page(owner, "profile").statuses[0]["liked"] is False
