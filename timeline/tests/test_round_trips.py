"""The round trips of the post and page paths stay fixed as conversations add to them."""

import time

import pytest
from django.conf import settings
from django.http import HttpRequest
from django.test import RequestFactory

from accounts import backends
from accounts import services as accounts
from socialsite.sessions import SessionStore
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses import cache


@pytest.fixture(autouse=True)
def status_cache_listening():
    """The process's status cache listens on its own connection, started by the first
    page read: started here, so that its round trips are not counted as a page's."""
    deadline = time.monotonic() + 10
    while not cache.statuses.serving() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cache.statuses.serving()


@pytest.fixture
def busy_author(make_user, followers_of):
    """An author with followers, on a list, who mentions and tags."""
    author = make_user("author").uid
    make_user("friend")
    followers_of(author, 3)
    owner = make_user().uid
    lists.add_member(owner, lists.create_list(owner, "l"), author)
    return author


def test_a_post_with_mentions_tags_and_lists_is_three_round_trips(busy_author, round_trips):
    assert round_trips(lambda: posting.post_status(busy_author, "@friend look #redis")) == 3


def test_a_reply_adds_two_round_trips_finding_and_applying_the_reply_rule(
    busy_author, make_user, round_trips
):
    parent = posting.post_status(make_user().uid, "question")

    def reply():
        posting.post_status(busy_author, "answer", in_reply_to=parent)

    assert round_trips(reply) == 5


def test_a_page_is_two_round_trips_and_one_more_when_it_shows_reposts(
    busy_author, make_user, round_trips
):
    for i in range(5):
        posting.post_status(busy_author, f"status {i}")
    assert round_trips(lambda: feeds.timeline_page(busy_author, "profile")) == 2
    reactions.repost(busy_author, posting.post_status(make_user().uid, "share"))
    assert round_trips(lambda: feeds.timeline_page(busy_author, "profile")) == 3


def test_a_page_marks_the_viewers_likes_and_reposts_in_those_round_trips(
    busy_author, make_user, round_trips
):
    viewer = make_user("viewer").uid
    liked = posting.post_status(busy_author, "liked")
    posting.post_status(busy_author, "not liked")
    reactions.like(viewer, liked)

    def page():
        key = keys.profile_timeline_key(busy_author)
        return feeds.statuses_page(key, 1, 30, viewer=viewer)

    assert round_trips(page) == 2
    assert [(s["message"], s["liked"]) for s in page().statuses] == [
        ("not liked", False),
        ("liked", True),
    ]
    original = posting.post_status(make_user().uid, "shared")
    reactions.repost(busy_author, original)
    reactions.repost(viewer, original)
    assert round_trips(page) == 3
    shown = page().statuses[0]["original"]
    assert (shown["id"], shown["reposted"], shown["liked"]) == (original, True, False)


def test_the_home_page_reads_the_readers_profile_and_marks_in_two_round_trips(
    busy_author, make_user, round_trips
):
    reader = make_user("reader").uid
    graph.follow_user(reader, busy_author)
    reactions.like(reader, posting.post_status(busy_author, "liked"))
    posting.post_status(busy_author, "not liked")
    # The first read of the hour records it (feeds.homes): one round trip more.
    assert round_trips(lambda: feeds.home_page(reader)) == 3
    assert round_trips(lambda: feeds.home_page(reader)) == 2
    home = feeds.home_page(reader)
    assert home.user["login"] == "reader"
    assert home.user["following"] == 1
    assert [(s["message"], s["liked"]) for s in home.page.statuses] == [
        ("not liked", False),
        ("liked", True),
    ]


def test_a_conversation_marks_the_chain_the_status_and_its_replies_in_two_round_trips(
    make_user, round_trips
):
    from timeline.conversations import selectors as conversations

    author, viewer = make_user().uid, make_user().uid
    root = posting.post_status(author, "root")
    middle = posting.post_status(author, "middle", in_reply_to=root)
    reply = posting.post_status(author, "reply", in_reply_to=middle)
    other = posting.post_status(author, "other", in_reply_to=middle)
    for liked in (root, middle, reply):
        reactions.like(viewer, liked)
    reactions.repost(viewer, other)
    assert round_trips(lambda: conversations.conversation(middle, viewer)) == 2
    view = conversations.conversation(middle, viewer)
    marks = {
        s["id"]: (s["liked"], s["reposted"]) for s in [*view.ancestors, view.status, *view.replies]
    }
    assert marks == {
        root: (True, False),
        middle: (True, False),
        reply: (True, False),
        other: (False, True),
    }


def test_a_profile_page_is_three_round_trips_and_one_more_for_followers_in_common(
    busy_author, make_user, round_trips
):
    posting.post_status(busy_author, "hello")
    viewer, friend = make_user("viewer").uid, make_user("friend2").uid
    assert round_trips(lambda: graph_selectors.profile_page("author")) == 3
    # The login's uid is then remembered (accounts.logins).
    assert round_trips(lambda: graph_selectors.profile_page("author", viewer)) == 2
    graph.follow_user(viewer, friend)
    graph.follow_user(friend, busy_author)
    assert round_trips(lambda: graph_selectors.profile_page("author", viewer)) == 3
    view = graph_selectors.profile_page("author", viewer)
    assert view.user["login"] == "author"
    assert [u["login"] for u in view.followers_in_common] == ["friend2"]


def test_a_profile_page_reads_the_viewers_lists_with_its_own_round_trips(
    busy_author, make_user, round_trips
):
    viewer = make_user("lister").uid
    with_author, without = lists.create_list(viewer, "with"), lists.create_list(viewer, "without")
    lists.add_member(viewer, with_author, busy_author)
    graph_selectors.profile_page("author", viewer)  # the login's uid remembered
    assert round_trips(lambda: graph_selectors.profile_page("author", viewer)) == 2
    view = graph_selectors.profile_page("author", viewer)
    assert [(each["id"], each["has_member"]) for each in view.viewer_lists] == [
        (without, False),
        (with_author, True),
    ]
    assert graph_selectors.profile_page("lister", viewer).viewer_lists == ()  # their own


def test_others_private_statuses_cost_a_page_one_follow_look_up_at_most(round_trips, make_user):
    from timeline.conversations import selectors as conversations
    from timeline.safety import services as safety

    viewer, root_author = make_user().uid, make_user().uid
    private = [make_user().uid for _ in range(2)]
    for uid in private:
        safety.set_private(uid, True)
    root = posting.post_status(root_author, "a question")
    for uid in private:
        posting.post_status(uid, "an answer", in_reply_to=root)
    assert round_trips(lambda: conversations.conversation(root, viewer)) == 3
    assert (
        round_trips(lambda: feeds.statuses_page(keys.replies_key(root), 1, 30, viewer=viewer)) == 3
    )
    # The home page knows its authors are followed: no look-up.
    reader = make_user().uid
    for uid in private:
        graph.follow_user(reader, uid)
        safety.approve_request(uid, reader)
    feeds.home_page(reader)  # the first read of the hour records it (feeds.homes)
    assert round_trips(lambda: feeds.home_page(reader)) == 2
    assert len(feeds.home_page(reader).page.statuses) == 2


def test_a_signed_in_user_and_their_session_state_are_one_round_trip_once_seen(
    make_user, round_trips
):
    alice = make_user()
    backend = backends.CachedUserBackend()
    backend.get_user(alice.user.pk)  # caches the user
    backends.KNOWN_UIDS.pop(str(alice.user.pk))
    assert round_trips(lambda: backend.get_user(alice.user.pk)) == 2
    assert round_trips(lambda: backend.get_user(alice.user.pk)) == 1
    # A uid this process wrongly remembers (a deleted user's reused id) is caught.
    other = make_user()
    accounts.end_sessions(alice.uid)
    backends.KNOWN_UIDS[str(alice.user.pk)] = other.uid
    user = backend.get_user(alice.user.pk)
    assert (user.uid, user.session_generation) == (alice.uid, 1)
    assert backends.KNOWN_UIDS[str(alice.user.pk)] == alice.uid


def signed_in_request(member) -> HttpRequest:
    """A new request with `member`'s session cookie, through the session middleware."""
    request = RequestFactory().get("/")
    request.session = SessionStore(member.client.cookies[settings.SESSION_COOKIE_NAME].value)
    return request


def test_a_session_seen_signed_in_is_read_with_its_user_in_one_round_trip(make_user, round_trips):
    alice = make_user()
    backends.session_user(signed_in_request(alice))  # caches the user
    backends.KNOWN_SESSIONS.clear()
    assert round_trips(lambda: backends.session_user(signed_in_request(alice))) == 2
    request = signed_in_request(alice)
    assert round_trips(lambda: backends.session_user(request)) == 1
    assert (request.session["uid"], backends.session_user(request).uid) == (alice.uid, alice.uid)


def test_a_session_wrongly_guessed_to_be_anothers_is_read_as_its_own(make_user):
    alice, bob = make_user(), make_user()
    key = alice.client.cookies[settings.SESSION_COOKIE_NAME].value
    backends.KNOWN_SESSIONS[key] = (str(bob.user.pk), bob.uid)
    user = backends.session_user(signed_in_request(alice))
    assert (user.pk, user.uid) == (alice.user.pk, alice.uid)
    assert backends.KNOWN_SESSIONS[key] == (str(alice.user.pk), alice.uid)


def test_a_known_session_logged_out_elsewhere_is_ended_and_forgotten(make_user):
    alice = make_user()
    key = alice.client.cookies[settings.SESSION_COOKIE_NAME].value
    backends.session_user(signed_in_request(alice))
    assert key in backends.KNOWN_SESSIONS
    SessionStore(key).delete()  # as logging out does
    assert not backends.session_user(signed_in_request(alice)).is_authenticated
    assert key not in backends.KNOWN_SESSIONS


def test_a_home_page_reads_its_first_data_with_the_session_once_seen(
    busy_author, make_user, round_trips
):
    reader = make_user()
    graph.follow_user(reader.uid, busy_author)
    reader.client.get("/")  # the session seen signed in, the hour's home read recorded
    response = round_trips(lambda: reader.client.get("/"))
    assert response == 2  # the session, user and home's first reads; the statuses and marks


def test_a_home_page_read_with_a_session_of_another_user_is_its_own_users(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    key = alice.client.cookies[settings.SESSION_COOKIE_NAME].value
    alice.client.get("/")
    backends.KNOWN_SESSIONS[key] = (str(bob.user.pk), bob.uid)  # a wrong guess: bob's reads
    text = alice.client.get("/").content.decode()
    assert "@alice</a></p>" in text and "@bob" not in text


def test_a_home_page_of_a_session_ended_elsewhere_shows_the_visitors_page(make_user):
    alice = make_user("alice")
    assert "@alice</a></p>" in alice.client.get("/").content.decode()
    accounts.end_sessions(alice.uid)  # "log out everywhere"
    text = alice.client.get("/").content.decode()
    assert "@alice" not in text and "Log in" in text


def test_top_is_three_round_trips_with_reposts_likers_and_the_readers_affinity(
    busy_author, make_user, round_trips
):
    from timeline.ranking import selectors as ranking

    reader = make_user("reader").uid
    graph.follow_user(reader, busy_author)
    liked = posting.post_status(busy_author, "liked")
    reactions.like(reader, liked)
    reactions.like(make_user().uid, liked)
    reactions.repost(busy_author, posting.post_status(make_user().uid, "share"))
    feeds.home_page(reader)  # the hour's home read recorded
    home = ranking.top_page(reader).page.statuses
    # The statuses not kept in the process are read in the second round trip.
    for status in home:
        cache.statuses.forget(status["id"])
    assert round_trips(lambda: ranking.top_page(reader)) == 3
    # All kept: the second has nothing to read.
    assert round_trips(lambda: ranking.top_page(reader)) == 2
    for status in home:
        cache.statuses.forget(status["id"])
    assert round_trips(lambda: ranking.top_statuses(reader)) == 3


def test_a_top_home_page_reads_its_first_data_with_the_session_once_seen(
    busy_author, make_user, round_trips
):
    reader = make_user()
    graph.follow_user(reader.uid, busy_author)
    shared = posting.post_status(make_user().uid, "share")
    posted = [shared, reactions.repost(busy_author, shared)]

    def cold_home(query: str = "") -> int:
        for status_id in posted:
            cache.statuses.forget(status_id)
        return round_trips(lambda: reader.client.get(f"/{query}"))

    reader.client.get("/?order=top")  # remembered, and the session seen signed in
    # The session, user and Top's first reads; the statuses; originals, marks and likers.
    assert cold_home() == 3
    assert cold_home("?order=top") == 3
    # Latest stays as it was: the first reads; the statuses and marks; the originals.
    reader.client.get("/?order=latest")
    assert cold_home() == 3
