import threading
import time

from socialsite import events
from socialsite.keys import STATUS_CHANNEL
from socialsite.testing.waits import wait_for
from timeline.discovery import activity
from timeline.posting import services as posting
from timeline.safety import services as safety

HOUR = 3600
# The middle of the current hour: buckets are predictable, and expire by the real clock.
NOW = (time.time() // HOUR + 0.5) * HOUR


def status(status_id: int, message: str, posted: float = NOW) -> dict:
    return {"id": status_id, "uid": 1, "login": "ann", "message": message, "posted": posted}


def test_posts_are_counted_per_hour_for_the_last_day(redis_conn):
    for i, posted in enumerate([NOW, NOW - 60, NOW - 2 * HOUR, NOW - 30 * HOUR]):
        activity.record(redis_conn, status(i, "hi", posted), now=NOW)
    hours = activity.posts_per_hour(now=NOW)
    assert len(hours) == 24
    assert hours[-1] == (int(NOW // HOUR * HOUR), 2)
    assert hours[-3][1] == 1
    assert sum(count for _, count in hours) == 3


def test_tags_and_mentions_of_the_last_hour_rank_most_used_first(redis_conn):
    activity.record(redis_conn, status(1, "#Redis and #python with @Bob"), now=NOW)
    activity.record(redis_conn, status(2, "more #redis @bob @cy", NOW - 120), now=NOW)
    activity.record(redis_conn, status(3, "old #news", NOW - 2 * HOUR), now=NOW)
    top = activity.trending(now=NOW)
    assert top["tags"] == [("redis", 2), ("python", 1)]
    assert top["mentions"] == [("bob", 2), ("cy", 1)]


def test_an_event_counted_twice_counts_once(redis_conn):
    for _ in range(3):
        activity.record(redis_conn, status(7, "#once"), now=NOW)
    assert activity.trending(now=NOW)["tags"] == [("once", 1)]
    assert activity.posts_per_hour(now=NOW)[-1][1] == 1


def test_a_deletion_takes_back_its_tags_but_not_the_post(redis_conn):
    activity.record(redis_conn, status(8, "#gone #stays"), now=NOW)
    activity.record(redis_conn, status(9, "#stays"), now=NOW)
    activity.record(redis_conn, status(8, "#gone #stays"), deleted=True, now=NOW)
    assert activity.trending(now=NOW)["tags"] == [("stays", 1)]
    assert activity.posts_per_hour(now=NOW)[-1][1] == 2


def test_a_repost_counts_as_a_post_but_its_words_only_once(redis_conn):
    activity.record(redis_conn, status(1, "#redis with @bob"), now=NOW)
    activity.record(redis_conn, {**status(2, "#redis with @bob"), "repost_of": 1}, now=NOW)
    assert activity.trending(now=NOW) == {"tags": [("redis", 1)], "mentions": [("bob", 1)]}
    assert activity.posts_per_hour(now=NOW)[-1][1] == 2


def test_follow_events_and_garbage_are_not_counted(redis_conn):
    follow = events.follow_changed("follow", {"id": 1, "login": "a"}, {"id": 2, "login": "b"}, 1)
    assert activity.record_event(follow) is False
    assert activity.record_event("not json") is False
    assert activity.record_event('{"id": "x"}') is False
    assert sum(count for _, count in activity.posts_per_hour()) == 0


def test_buckets_expire_on_their_own(redis_conn):
    activity.record(redis_conn, status(1, "#ttl @someone"), now=NOW)
    keys = [k for k in redis_conn.scan_iter("activity:*") if not k.endswith(":counted")]
    assert keys and all(redis_conn.ttl(key) != -1 for key in keys)


def test_the_listener_counts_what_the_services_publish(make_user):
    stop = threading.Event()
    listener = threading.Thread(target=activity.listen, args=(stop.is_set,))
    listener.start()
    try:
        uid = make_user("poster").uid

        # The subscription starts asynchronously: post until one is counted.
        def counted() -> bool:
            posting.post_status(uid, "live #now @poster")
            return activity.trending()["tags"] != []

        wait_for(counted)
    finally:
        stop.set()
        listener.join()
    assert activity.trending()["mentions"][0][0] == "poster"
    assert sum(count for _, count in activity.posts_per_hour()) >= 1


def test_a_private_accounts_tags_never_trend_nor_its_deletions_take_back_others(
    make_user, redis_conn
):
    """What the services publish for a private account's post and its deletion, counted
    as the listener counts it: the post counts, its #tags don't."""
    private, public = make_user("private"), make_user("public")
    safety.set_private(private.uid, True)
    pubsub = redis_conn.pubsub()
    pubsub.subscribe(STATUS_CHANNEL)
    # Subscribed once Redis confirms it (NUMSUB would ask one node of a cluster only).
    confirmed = pubsub.get_message(timeout=20)
    assert confirmed and confirmed["type"] == "subscribe", confirmed
    posting.post_status(public.uid, "#party tonight")
    secret = posting.post_status(private.uid, "#party #surprise for my followers")
    posting.delete_status(private.uid, secret)
    published: list[str] = []

    def three_read() -> bool:
        message = pubsub.get_message(timeout=0.1)
        if message:
            published.append(message["data"])
        return len(published) == 3

    wait_for(three_read)
    pubsub.close()
    assert [activity.record_event(payload) for payload in published[:2]] == [True, True]
    assert activity.trending()["tags"] == [("party", 1)]
    assert activity.record_event(published[2]) is True
    assert activity.trending()["tags"] == [("party", 1)]
    assert sum(count for _, count in activity.posts_per_hour()) == 2
