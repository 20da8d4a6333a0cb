from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions
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


def read_twice(uid: int) -> list[int]:
    """`uid`'s home through the contract, read twice (the second time from the statuses
    kept in the process), checking both reads agree."""
    first = ids(feeds.get_status_messages(uid))
    assert ids(feeds.get_status_messages(uid)) == first
    return first


def test_a_reader_who_blocks_and_mutes_no_one_sees_all_they_follow_private_ones_too(make_user):
    reader, public, private, reposted = (make_user().uid for _ in range(4))
    safety.set_private(private, True)
    graph.follow_user(reader, public)
    graph.follow_user(reader, private)
    safety.approve_request(private, reader)
    own = posting.post_status(reader, "mine")
    theirs = posting.post_status(public, "public words")
    hidden_away = posting.post_status(private, "for followers")
    repost = reactions.repost(public, posting.post_status(reposted, "worth a repost"))

    assert read_twice(reader) == [repost, hidden_away, theirs, own]


def test_blocks_mutes_and_muted_words_hide_each_status_they_cover_through_the_contract(
    make_user,
):
    reader, worded, reposter, blocked, muted = (make_user().uid for _ in range(5))
    for author in (worded, reposter, muted):
        graph.follow_user(reader, author)
    cats = posting.post_status(worded, "hello cats")
    dogs = posting.post_status(worded, "hello dogs")
    repost_of_blocked = reactions.repost(reposter, posting.post_status(blocked, "mine"))
    plain = posting.post_status(reposter, "nothing to hide")
    from_muted = posting.post_status(muted, "from a muted user")
    own_cats = posting.post_status(reader, "my cats")
    everything = [own_cats, from_muted, plain, repost_of_blocked, dogs, cats]
    assert read_twice(reader) == everything

    safety.block(reader, blocked)
    safety.mute(reader, muted)
    safety.set_muted_words(reader, "cats")

    # One author's statuses are told apart by their words; the reader's own never hide.
    assert read_twice(reader) == [own_cats, plain, dogs]

    safety.unblock(reader, blocked)
    safety.unmute(reader, muted)
    safety.set_muted_words(reader, "")
    assert read_twice(reader) == everything
