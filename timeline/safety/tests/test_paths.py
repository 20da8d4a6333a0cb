"""The one rule on every path a status is shown: a private account's statuses only to
the author and approved followers, nothing between two users when one blocks the other."""

import pytest

from timeline.conversations import selectors as conversations
from timeline.direct import services as direct
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.notifications.selectors import notifications_page
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services
from timeline.search.selectors import search_statuses
from timeline.statuses.selectors import StatusGone
from timeline.tests.pages import shows, status_ids


@pytest.fixture
def private_alice(alice, bob, make_user):
    """Alice is private; bob is her approved follower; carol is not."""
    services.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    services.approve_request(alice.uid, bob.uid)
    return alice


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_profile_shows_a_private_accounts_statuses_to_followers_only(
    private_alice, bob, carol, client
):
    sid = posting.post_status(private_alice.uid, "hello friends")
    assert status_ids(bob.client.get("/u/alice/")) == [sid]
    assert status_ids(private_alice.client.get("/u/alice/")) == [sid]
    response = carol.client.get("/u/alice/")
    assert status_ids(response) == [] and shows(response, "account is private")
    assert status_ids(client.get("/u/alice/")) == []


def test_status_page_is_404_for_others(private_alice, bob, carol, client):
    sid = posting.post_status(private_alice.uid, "hello friends")
    assert bob.client.get(f"/statuses/{sid}/").status_code == 200
    assert carol.client.get(f"/statuses/{sid}/").status_code == 404
    assert client.get(f"/statuses/{sid}/").status_code == 404
    assert carol.client.get(f"/statuses/{sid}/card/").status_code == 404


def test_conversations_leave_out_private_replies(private_alice, bob, carol):
    root = posting.post_status(carol.uid, "a question")
    reply = posting.post_status(private_alice.uid, "an answer", in_reply_to=root)
    assert [s["id"] for s in conversations.conversation(root, bob.uid).replies] == [reply]
    assert conversations.conversation(root, carol.uid).replies == []
    assert conversations.conversation(root).replies == []


def test_tag_and_mention_pages_obey_the_rule(private_alice, bob, carol):
    sid = posting.post_status(private_alice.uid, "#redis is fun @carol")
    assert [s["id"] for s in conversations.tag_page("redis", viewer=bob.uid).statuses] == [sid]
    assert conversations.tag_page("redis", viewer=carol.uid).statuses == []
    assert conversations.tag_page("redis").statuses == []
    assert conversations.mentions_page(carol.uid, viewer=carol.uid).statuses == []


def test_search_finds_a_private_status_only_for_followers_and_never_across_a_block(
    private_alice, bob, carol
):
    sid = posting.post_status(private_alice.uid, "secret garden")
    public = posting.post_status(carol.uid, "secret garden party")
    assert status_ids_of(search_statuses("secret garden", viewer=bob.uid)) == [public, sid]
    assert status_ids_of(search_statuses("secret garden", viewer=carol.uid)) == [public]
    assert status_ids_of(search_statuses("secret garden")) == [public]
    services.block(carol.uid, bob.uid)
    assert status_ids_of(search_statuses("secret garden", viewer=bob.uid)) == [sid]


def status_ids_of(page) -> list[int]:
    return [status["id"] for status in page.statuses]


def test_lists_show_a_private_members_statuses_to_followers_only(private_alice, bob, carol):
    sid = posting.post_status(private_alice.uid, "on a list")
    bobs = lists.create_list(bob.uid, "B")
    carols = lists.create_list(carol.uid, "C")
    lists.add_member(bob.uid, bobs, private_alice.uid)
    lists.add_member(carol.uid, carols, private_alice.uid)
    assert [s["id"] for s in list_selectors.list_timeline_page(bobs, viewer=bob.uid).statuses] == [
        sid
    ]
    assert list_selectors.list_timeline_page(carols, viewer=carol.uid).statuses == []


def test_global_timeline_never_shows_a_private_status(private_alice, bob, client):
    posting.post_status(private_alice.uid, "private")
    assert status_ids(bob.client.get("/timeline/")) == []
    assert status_ids(client.get("/timeline/")) == []


def test_a_non_follower_cant_reply_to_like_or_repost_a_private_status(private_alice, carol):
    sid = posting.post_status(private_alice.uid, "private")
    with pytest.raises(StatusGone):
        posting.post_status(carol.uid, "hey", in_reply_to=sid)
    with pytest.raises(StatusGone):
        reactions.like(carol.uid, sid)
    with pytest.raises(ValueError):
        reactions.repost(carol.uid, sid)


def test_a_block_hides_each_ones_statuses_from_the_other_everywhere(alice, bob, client):
    sid = posting.post_status(bob.uid, "#news from bob")
    services.block(alice.uid, bob.uid)
    assert status_ids(alice.client.get("/timeline/")) == []
    assert status_ids(alice.client.get("/tags/news/")) == []
    assert alice.client.get(f"/statuses/{sid}/").status_code == 404
    assert status_ids(client.get("/timeline/")) == [sid]  # others still see it
    own = posting.post_status(alice.uid, "from alice")
    assert bob.client.get(f"/statuses/{own}/").status_code == 404
    assert shows(bob.client.get("/u/alice/"), "blocked you")
    assert status_ids(bob.client.get("/u/alice/")) == []


def test_a_blocked_user_cant_reply_like_repost_or_follow(alice, bob):
    sid = posting.post_status(alice.uid, "mine")
    services.block(alice.uid, bob.uid)
    with pytest.raises(StatusGone):
        posting.post_status(bob.uid, "hey", in_reply_to=sid)
    with pytest.raises(StatusGone):
        reactions.like(bob.uid, sid)
    with pytest.raises(StatusGone):
        reactions.repost(bob.uid, sid)
    assert bob.client.post("/u/alice/follow/").status_code == 403


def test_a_blocked_user_doesnt_notify_the_blocker(alice, bob):
    services.block(alice.uid, bob.uid)
    posting.post_status(bob.uid, "hi @alice")
    services.unblock(alice.uid, bob.uid)
    services.mute(alice.uid, bob.uid)
    graph.follow_user(bob.uid, alice.uid)
    posting.post_status(bob.uid, "again @alice")
    assert notifications_page(alice.uid, 1, 30).notifications == []


def test_blocks_and_private_accounts_limit_direct_messages(alice, bob, carol):
    conversation = direct.start_conversation(bob.uid, "alice", "hello")
    services.block(alice.uid, bob.uid)
    with pytest.raises(ValueError, match="can't message @alice"):
        direct.start_conversation(bob.uid, "alice", "hello?")
    with pytest.raises(ValueError, match="block"):
        direct.send_message(bob.uid, conversation, "still there?")
    services.set_private(carol.uid, True)
    with pytest.raises(ValueError, match="can't message @carol"):
        direct.start_conversation(alice.uid, "carol", "hi")
    graph.follow_user(carol.uid, alice.uid)
    assert direct.start_conversation(alice.uid, "carol", "hi")


def test_home_keeps_an_approved_followers_private_statuses(private_alice, bob):
    posting.post_status(private_alice.uid, "to followers")
    assert [s["message"] for s in feeds.home_page(bob.uid).page.statuses] == ["to followers"]
    assert feeds.get_status_messages(bob.uid) and feeds.get_status_messages(bob.uid)[0]["private"]


def test_a_private_accounts_mentions_notify_only_its_followers(private_alice, bob, carol):
    posting.post_status(private_alice.uid, "hi @bob and @carol")
    assert [n.kind for n in notifications_page(bob.uid, 1, 30).notifications] == ["mention"]
    assert notifications_page(carol.uid, 1, 30).notifications == []


def test_a_private_accounts_follows_are_seen_by_it_and_its_followers_only(
    private_alice, bob, carol
):
    from timeline.graph.selectors import followers_page, following_page

    graph.follow_user(private_alice.uid, carol.uid)
    assert [u["login"] for u in followers_page(private_alice.uid, viewer=bob.uid)[0]] == ["bob"]
    assert [u["login"] for u in following_page(private_alice.uid, viewer=private_alice.uid)[0]] == [
        "carol"
    ]
    assert followers_page(private_alice.uid, viewer=carol.uid) == ([], False)
    assert following_page(private_alice.uid) == ([], False)
    services.block(carol.uid, bob.uid)
    assert following_page(bob.uid, viewer=carol.uid) == ([], False)
