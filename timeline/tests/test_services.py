import json

import pytest
from django.test import override_settings

from accounts.services import get_user
from socialsite import jobs
from socialsite.keys import STATUS_CHANNEL
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses import selectors as status_selectors
from timeline.statuses import services as statuses
from timeline.tests.pages import home_entries, ids


def test_create_status_stores_fields_extra_data_and_counts_the_post(make_user):
    uid = make_user("alice").uid
    sid = statuses.create_status(uid, "hello", location="48.85,2.35")
    status = status_selectors.get_status(sid)
    assert status["message"] == "hello"
    assert status["login"] == "alice"
    assert status["uid"] == uid
    assert status["location"] == "48.85,2.35"
    assert isinstance(status["posted"], float)
    assert get_user(uid)["posts"] == 1
    assert ids(feeds.get_status_messages(uid, "profile")) == [sid]


def test_create_status_for_an_unknown_user_is_none():
    assert statuses.create_status(999, "hello") is None


@pytest.mark.parametrize("message", ["", "   ", "x" * 281, None])
def test_bad_messages_are_refused_and_store_nothing(make_user, message):
    uid = make_user().uid
    with pytest.raises(ValueError):
        posting.post_status(uid, message)
    assert get_user(uid)["posts"] == 0
    assert status_selectors.last_status_id() == 0


def test_a_280_character_message_is_fine(make_user):
    assert posting.post_status(make_user().uid, "x" * 280)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("pay \u202eevil", "a bidi override"),
        ("a\u2066b", "a bidi isolate"),
        ("ad\u200bmin", "a zero-width character"),
        ("bell\x07", "a control character"),
        ("nul\x00", "a control character"),
        ("soft\u00adhyphen", "a format character"),
    ],
)
def test_invisible_or_reordering_characters_in_a_message_are_refused_and_store_nothing(
    make_user, message, kind
):
    uid = make_user().uid
    with pytest.raises(ValueError, match=kind):
        posting.post_status(uid, message)
    assert get_user(uid)["posts"] == 0
    assert status_selectors.last_status_id() == 0


def test_a_message_keeps_its_lines_and_tabs_with_line_breaks_stored_as_newlines(make_user):
    sid = posting.post_status(make_user().uid, "one\r\ntwo\rthree\n\tfour")
    assert status_selectors.get_status(sid)["message"] == "one\ntwo\nthree\n\tfour"


def test_a_crlf_line_break_counts_as_one_character(make_user):
    assert posting.post_status(make_user().uid, "x" * 139 + "\r\n" + "y" * 140)


def test_post_reaches_author_and_followers_home_and_the_global_timeline(make_user, followers_of):
    author = make_user().uid
    fans = followers_of(author, 3)
    sid = posting.post_status(author, "news")
    for uid in [author, *fans]:
        assert ids(feeds.get_status_messages(uid)) == [sid]
    assert ids(feeds.global_timeline_page().statuses) == [sid]


def test_post_publishes_the_status_event(make_user, redis_conn):
    uid = make_user("pub").uid
    pubsub = redis_conn.pubsub()
    pubsub.subscribe(STATUS_CHANNEL)
    pubsub.get_message(timeout=1)
    sid = posting.post_status(uid, "hi there", location="1,2")
    event = json.loads(pubsub.get_message(timeout=1)["data"])
    assert event["id"] == sid and event["login"] == "pub" and event["location"] == "1,2"
    pubsub.close()


def test_timelines_are_newest_first_and_paginated(make_user):
    uid = make_user().uid
    sids = [posting.post_status(uid, f"status {i}") for i in range(7)]
    page1 = feeds.timeline_page(uid, "home", page=1, count=3)
    page3 = feeds.timeline_page(uid, "home", page=3, count=3)
    assert ids(page1.statuses) == sids[::-1][:3]
    assert page1.has_older and not page1.has_newer
    assert ids(page3.statuses) == [sids[0]]
    assert not page3.has_older and page3.has_newer
    assert feeds.get_status_messages(uid, page=4, count=3) == []


def test_a_page_number_below_one_is_refused(make_user):
    with pytest.raises(ValueError):
        feeds.get_status_messages(make_user().uid, page=0)


def test_unknown_timeline_is_refused(make_user):
    with pytest.raises(ValueError):
        feeds.get_status_messages(make_user().uid, timeline="elsewhere")


@override_settings(HOME_TIMELINE_SIZE=5)
def test_home_timeline_is_trimmed_to_its_size(make_user):
    uid = make_user().uid
    sids = [posting.post_status(uid, f"s{i}") for i in range(8)]
    assert len(home_entries(uid)) == 5
    assert ids(feeds.get_status_messages(uid)) == sids[::-1][:5]


def test_follow_updates_both_counters_and_backfills_home(make_user):
    alice, bob = make_user().uid, make_user().uid
    older = [posting.post_status(bob, f"b{i}") for i in range(3)]
    assert graph.follow_user(alice, bob) is True
    assert get_user(alice)["following"] == 1
    assert get_user(bob)["followers"] == 1
    assert ids(feeds.get_status_messages(alice)) == older[::-1]
    assert graph_selectors.is_following(alice, bob)


def test_following_twice_is_none_and_counts_once(make_user):
    alice, bob = make_user().uid, make_user().uid
    graph.follow_user(alice, bob)
    assert graph.follow_user(alice, bob) is None
    assert get_user(alice)["following"] == 1
    assert get_user(bob)["followers"] == 1


@override_settings(HOME_TIMELINE_SIZE=4)
def test_follow_copies_only_the_newest_home_timeline_size_statuses(make_user):
    alice, bob = make_user().uid, make_user().uid
    sids = [posting.post_status(bob, f"b{i}") for i in range(6)]
    graph.follow_user(alice, bob)
    assert ids(feeds.get_status_messages(alice)) == sids[::-1][:4]


def test_following_yourself_or_nobody_is_refused_and_changes_nothing(make_user):
    alice = make_user().uid
    with pytest.raises(ValueError):
        graph.follow_user(alice, alice)
    with pytest.raises(ValueError):
        graph.follow_user(alice, 424242)
    assert get_user(alice)["following"] == 0
    assert get_user(alice)["followers"] == 0


def test_unfollow_removes_their_statuses_from_home_and_fixes_counters(make_user):
    alice, bob = make_user().uid, make_user().uid
    mine = posting.post_status(alice, "mine")
    posting.post_status(bob, "theirs")
    graph.follow_user(alice, bob)
    assert graph.unfollow_user(alice, bob) is True
    assert ids(feeds.get_status_messages(alice)) == [mine]
    assert get_user(alice)["following"] == 0
    assert get_user(bob)["followers"] == 0
    assert graph.unfollow_user(alice, bob) is None
    assert get_user(bob)["followers"] == 0


def test_follow_and_unfollow_publish_events(make_user, redis_conn):
    alice, bob = make_user("ann").uid, make_user("ben").uid
    pubsub = redis_conn.pubsub()
    pubsub.subscribe(STATUS_CHANNEL)
    pubsub.get_message(timeout=1)
    graph.follow_user(alice, bob)
    graph.follow_user(alice, bob)  # no change, no event
    graph.unfollow_user(alice, bob)
    first = json.loads(pubsub.get_message(timeout=1)["data"])
    second = json.loads(pubsub.get_message(timeout=1)["data"])
    assert (first["event"], first["source"]["login"], first["target"]["login"]) == (
        "follow",
        "ann",
        "ben",
    )
    assert second["event"] == "unfollow"
    assert pubsub.get_message(timeout=0.2) is None
    pubsub.close()


def test_a_follow_is_published_before_the_statuses_posted_after_it(make_user, events):
    # On a cluster too: every event leaves from the channel's node, which keeps their order.
    readers = [make_user().uid for _ in range(10)]
    authors = [make_user().uid for _ in range(10)]
    for reader, author in zip(readers, authors, strict=True):
        graph.follow_user(reader, author)
        posting.post_status(author, "hello")
        graph.unfollow_user(reader, author)
    published = [event.get("event", "status") for event in events()]
    assert published == ["follow", "status", "unfollow"] * 10


def test_delete_status_by_its_author(make_user, followers_of, redis_conn):
    author = make_user().uid
    fan = followers_of(author, 1)[0]
    sid = posting.post_status(author, "oops")
    pubsub = redis_conn.pubsub()
    pubsub.subscribe(STATUS_CHANNEL)
    pubsub.get_message(timeout=1)
    assert posting.delete_status(author, sid) is True
    assert status_selectors.get_status(sid) is None
    assert get_user(author)["posts"] == 0
    assert feeds.get_status_messages(fan) == []
    assert feeds.get_status_messages(author, "profile") == []
    assert feeds.global_timeline_page().statuses == []
    event = json.loads(pubsub.get_message(timeout=1)["data"])
    assert event["id"] == sid and event["deleted"] is True and event["message"] == "oops"
    pubsub.close()


def test_only_the_author_can_delete(make_user):
    author, other = make_user().uid, make_user().uid
    sid = posting.post_status(author, "mine")
    assert posting.delete_status(other, sid) is False
    assert status_selectors.get_status(sid)["message"] == "mine"
    assert get_user(author)["posts"] == 1


def test_deleting_a_missing_status_is_none(make_user):
    uid = make_user().uid
    sid = posting.post_status(uid, "x")
    posting.delete_status(uid, sid)
    assert posting.delete_status(uid, sid) is None
    assert get_user(uid)["posts"] == 0


def test_followers_and_following_pages(make_user, followers_of):
    star = make_user().uid
    fans = followers_of(star, 3)
    people, more = graph_selectors.followers_page(star, count=2)
    assert [p["id"] for p in people] == fans[::-1][:2] and more
    following, more = graph_selectors.following_page(fans[0])
    assert [p["id"] for p in following] == [star] and not more


def test_followers_in_common_are_people_i_follow_who_follow_them(make_user):
    me, star, friend, stranger = make_user().uid, make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, friend)
    graph.follow_user(friend, star)
    graph.follow_user(stranger, star)
    assert [u["id"] for u in graph_selectors.followers_in_common(me, star)] == [friend]


@override_settings(POSTS_PER_PASS=3)
def test_followers_past_the_first_pass_get_the_status_after_the_worker_runs(
    make_user, followers_of
):
    author = make_user().uid
    fans = followers_of(author, 8)
    sid = posting.post_status(author, "big news")
    got = [fan for fan in fans if ids(feeds.get_status_messages(fan)) == [sid]]
    assert got == fans[:3]
    assert jobs.queue_stats()["queued"] == 1
    jobs.work(burst=True)
    for fan in fans:
        assert ids(feeds.get_status_messages(fan)) == [sid]
    assert jobs.queue_stats() == {"queued": 0, "in_progress": 0, "failed": 0, "oldest_age": 0.0}


@override_settings(POSTS_PER_PASS=2)
def test_fan_out_reaches_followers_who_followed_at_the_same_instant(make_user, redis_conn):
    author = make_user().uid
    fans = [make_user().uid for _ in range(7)]
    # Seven follows with one shared timestamp: the cursor must not skip ties.
    for fan in fans:
        redis_conn.zadd(keys.followers_key(author), {fan: 1000.0})
    sid = posting.post_status(author, "tied")
    jobs.work(burst=True)
    for fan in fans:
        assert ids(feeds.get_status_messages(fan)) == [sid]


def test_deleted_statuses_are_never_returned(make_user, redis_conn):
    uid = make_user().uid
    keep = posting.post_status(uid, "keep")
    gone = posting.post_status(uid, "gone")
    # Even if an id lingers in a timeline, its missing hash hides it.
    redis_conn.delete(keys.status_key(gone))
    assert ids(feeds.get_status_messages(uid)) == [keep]


@override_settings(POSTS_PER_PASS=2)
def test_deleting_a_status_cleans_its_id_out_of_every_follower_home(make_user, followers_of):
    author = make_user().uid
    fans = followers_of(author, 5)
    sid = posting.post_status(author, "soon gone")
    jobs.work(burst=True)
    posting.delete_status(author, sid)
    jobs.work(burst=True)
    for fan in fans:
        assert sid not in home_entries(fan)
