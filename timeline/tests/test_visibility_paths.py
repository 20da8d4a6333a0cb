"""Visibility per post on every path a status is shown (timeline.audience's rule): an
unlisted status on its author's profile and followers' homes but never global, tag
pages or search; a followers-only one to followers alone, never reposted; a direct one
to the people it mentions alone, in their messages."""

import pytest
from django.core.management import call_command

from timeline.conversations import selectors as conversations
from timeline.direct import selectors as direct
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.notifications.selectors import notifications_page
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.search.selectors import search_statuses
from timeline.statuses.selectors import StatusGone, get_status
from timeline.tests.pages import home_entries, status_ids


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def followed_alice(alice, bob):
    """Bob follows alice; carol doesn't."""
    graph.follow_user(bob.uid, alice.uid)
    return alice


def ids_of(page) -> list[int]:
    return [status["id"] for status in page.statuses]


def test_a_status_stores_its_visibility_in_one_letter_and_nothing_when_public(alice, redis_conn):
    public = posting.post_status(alice.uid, "everyone", visibility="public")
    unlisted = posting.post_status(alice.uid, "quietly", visibility="unlisted")
    assert get_status(public).get("visibility") is None
    assert get_status(unlisted)["visibility"] == "unlisted"
    stored = {
        field
        for key in redis_conn.scan_iter(match="status:*")
        for field in redis_conn.hgetall(key)
        if redis_conn.type(key) == "hash"
    }
    assert "visibility" not in stored and "v" in stored


def test_an_unlisted_status_is_on_the_profile_and_homes_but_no_public_path(
    followed_alice, bob, carol, client
):
    sid = posting.post_status(followed_alice.uid, "#quiet news", visibility="unlisted")
    assert status_ids(client.get("/u/alice/")) == [sid]
    assert status_ids(carol.client.get(f"/statuses/{sid}/")) == [sid]
    assert sid in home_entries(bob.uid)
    assert status_ids(bob.client.get("/")) == [sid]
    assert status_ids(client.get("/timeline/")) == []
    assert status_ids(bob.client.get("/timeline/")) == []
    assert conversations.tag_page("quiet", viewer=bob.uid).statuses == []
    assert status_ids(client.get("/tags/quiet/")) == []
    assert search_statuses("news", viewer=bob.uid).statuses == []
    assert feeds.global_timeline_page(viewer=bob.uid).statuses == []


def test_a_followers_only_status_is_seen_by_followers_alone_and_never_reposted(
    followed_alice, bob, carol, client
):
    sid = posting.post_status(followed_alice.uid, "#friends only", visibility="private")
    assert status_ids(bob.client.get("/u/alice/")) == [sid]
    assert status_ids(carol.client.get("/u/alice/")) == []
    assert status_ids(client.get("/u/alice/")) == []
    assert carol.client.get(f"/statuses/{sid}/").status_code == 404
    assert sid in home_entries(bob.uid)
    assert status_ids(client.get("/timeline/")) == []
    assert ids_of(conversations.tag_page("friends", viewer=bob.uid)) == [sid]
    assert conversations.tag_page("friends", viewer=carol.uid).statuses == []
    assert ids_of(search_statuses("friends", viewer=bob.uid)) == [sid]
    assert search_statuses("friends", viewer=carol.uid).statuses == []
    with pytest.raises(ValueError):
        reactions.repost(bob.uid, sid)
    with pytest.raises(StatusGone):
        reactions.like(carol.uid, sid)


def test_a_direct_status_reaches_only_the_mentioned_and_their_messages(
    followed_alice, bob, carol, client
):
    sid = posting.post_status(followed_alice.uid, "psst @carol #secret", visibility="direct")
    call_command("worker", burst=True)
    assert sid not in home_entries(bob.uid)
    assert status_ids(bob.client.get("/u/alice/")) == []
    assert status_ids(carol.client.get("/u/alice/")) == [sid]
    assert status_ids(followed_alice.client.get("/u/alice/")) == [sid]
    assert bob.client.get(f"/statuses/{sid}/").status_code == 404
    assert client.get(f"/statuses/{sid}/").status_code == 404
    assert carol.client.get(f"/statuses/{sid}/").status_code == 200
    assert ids_of(conversations.mentions_page(carol.uid, viewer=carol.uid)) == [sid]
    assert conversations.tag_page("secret", viewer=carol.uid).statuses == []
    assert search_statuses("psst", viewer=carol.uid).statuses == []
    with pytest.raises(ValueError):
        reactions.repost(carol.uid, sid)
    # In the direct-message conversation with carol, with a link to the status.
    inbox = direct.inbox_page(carol.uid, 1, 30).conversations
    assert len(inbox) == 1 and "psst @carol" in inbox[0].last["text"]
    assert [n.kind for n in notifications_page(carol.uid, 1, 30).notifications] == ["mention"]
    assert notifications_page(bob.uid, 1, 30).notifications == []


def test_a_direct_status_must_mention_someone(alice):
    with pytest.raises(ValueError, match="mention"):
        posting.post_status(alice.uid, "to nobody", visibility="direct")


def test_an_unknown_visibility_or_a_too_long_warning_is_refused_and_nothing_stored(
    alice, redis_conn
):
    before = redis_conn.get("statuses:next_id")
    with pytest.raises(ValueError, match="visibility"):
        posting.post_status(alice.uid, "hm", visibility="friends")
    with pytest.raises(ValueError, match="content warning"):
        posting.post_status(alice.uid, "hm", spoiler_text="x" * 300)
    assert redis_conn.get("statuses:next_id") == before
    assert feeds.get_status_messages(alice.uid, "profile") == []


def test_a_followers_only_mention_notifies_only_followers(followed_alice, bob, carol):
    posting.post_status(followed_alice.uid, "hi @bob and @carol", visibility="private")
    assert [n.kind for n in notifications_page(bob.uid, 1, 30).notifications] == ["mention"]
    assert notifications_page(carol.uid, 1, 30).notifications == []


def test_lists_obey_each_visibility(followed_alice, bob, carol):
    bobs, carols = lists.create_list(bob.uid, "B"), lists.create_list(carol.uid, "C")
    lists.add_member(bob.uid, bobs, followed_alice.uid)
    lists.add_member(carol.uid, carols, followed_alice.uid)
    unlisted = posting.post_status(followed_alice.uid, "u", visibility="unlisted")
    private = posting.post_status(followed_alice.uid, "p", visibility="private")
    posting.post_status(followed_alice.uid, "d @carol", visibility="direct")
    call_command("worker", burst=True)
    assert ids_of(list_selectors.list_timeline_page(bobs, viewer=bob.uid)) == [private, unlisted]
    assert ids_of(list_selectors.list_timeline_page(carols, viewer=carol.uid)) == [unlisted]


def test_going_public_leaves_followers_only_and_direct_statuses_private(alice, bob, carol):
    safety.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    safety.approve_request(alice.uid, bob.uid)
    by_default = posting.post_status(alice.uid, "as the account")
    chosen = posting.post_status(alice.uid, "for friends", visibility="private")
    direct_id = posting.post_status(alice.uid, "hi @bob", visibility="direct")
    safety.set_private(alice.uid, False)
    call_command("worker", burst=True)
    assert status_ids(carol.client.get("/u/alice/")) == [by_default]
    assert get_status(chosen)["private"] == "1" and get_status(direct_id)["private"] == "1"


def test_the_default_visibility_setting_applies_to_posts_that_name_none(alice, bob, client):
    from timeline.posting.preferences import set_posting_preferences

    set_posting_preferences(alice.uid, default_visibility="unlisted", expand_warnings=False)
    sid = posting.post_status(alice.uid, "by default")
    assert get_status(sid)["visibility"] == "unlisted"
    assert status_ids(client.get("/timeline/")) == []
    public = posting.post_status(alice.uid, "chosen", visibility="public")
    assert status_ids(client.get("/timeline/")) == [public]
