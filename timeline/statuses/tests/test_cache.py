import time

from django.test import override_settings

from socialsite import jobs
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses import cache
from timeline.statuses.cache import StatusCache, statuses


def soon(condition) -> bool:
    """Whether `condition()` comes true within a few seconds (a listener thread subscribes
    and applies the changes others publish)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def page_of(uid):
    """`uid`'s home, read once the process's cache serves (so its statuses are kept)."""
    assert soon(statuses.serving)
    return feeds.get_status_messages(uid)


def test_a_page_read_keeps_its_statuses_and_a_like_in_this_process_is_seen_at_once(make_user):
    me, friend = make_user().uid, make_user().uid
    sid = posting.post_status(me, "hello")
    (status,) = page_of(me)
    assert statuses.get(str(sid), status["posted"])["message"] == "hello"
    reactions.like(friend, sid)
    assert feeds.get_status_messages(me)[0]["likes"] == 1
    posting.delete_status(me, sid)
    assert feeds.get_status_messages(me) == []


def test_a_change_published_by_another_process_is_forgotten_here(make_user, redis_conn):
    me = make_user().uid
    sid = posting.post_status(me, "before")
    (status,) = page_of(me)
    assert statuses.get(str(sid), status["posted"])["message"] == "before"
    # Another process's update_status: the hash changes and its key is published.
    redis_conn.hset(keys.status_key(sid), "message", "after")
    redis_conn.publish(keys.STATUS_CHANGES_CHANNEL, keys.status_key(sid))
    assert soon(lambda: statuses.get(str(sid), status["posted"]) is None)
    assert feeds.get_status_messages(me)[0]["message"] == "after"


def test_a_kept_status_is_not_served_for_an_id_that_now_names_another_status(make_user, redis_conn):
    me = make_user().uid
    sid = posting.post_status(me, "first life")
    page_of(me)
    redis_conn.flushdb()  # as the tests and the bench do: ids start again
    me = make_user().uid
    assert posting.post_status(me, "second life") == sid
    assert feeds.get_status_messages(me)[0]["message"] == "second life"


def test_a_status_read_before_a_change_is_not_kept_after_it():
    assert soon(statuses.serving)
    status = {"id": -7, "posted": 1.0, "message": "old"}
    before = statuses.generation()
    statuses.changed(keys.status_key(-7))  # the change's message came while the read was out
    statuses.keep([status], before)
    assert statuses.get(-7, 1.0) is None
    statuses.keep([status], statuses.generation())
    assert statuses.get(-7, 1.0)["message"] == "old"
    assert statuses.get(-7, 2.0) is None  # another posted time: another status


def test_a_process_reading_only_home_pages_starts_keeping_their_statuses(
    make_user, monkeypatch, redis_conn
):
    # A process whose cache no other page has started (its listener not yet subscribed):
    # its home pages start it, and once it serves, keep what they read.
    fresh = StatusCache()
    monkeypatch.setattr(cache, "statuses", fresh)
    me = make_user().uid
    sid = str(posting.post_status(me, "home only"))

    def kept() -> bool:
        feeds.get_status_messages(me)
        return bool(fresh.get_by_id([sid], redis_conn.get(keys.STATUSES_EPOCH)))

    assert soon(kept)


@override_settings(STATUS_CACHE_SIZE=0)
def test_with_no_cache_size_nothing_is_kept(make_user):
    me = make_user().uid
    sid = posting.post_status(me, "x")
    (status,) = feeds.get_status_messages(me)
    assert statuses.get(str(sid), status["posted"]) is None
    jobs.work(burst=True)
    assert feeds.get_status_messages(me)[0]["id"] == sid


def test_a_profile_page_serves_kept_statuses_until_they_change(make_user, redis_conn):
    author, viewer = make_user(), make_user()
    sid = posting.post_status(author.uid, "on my profile")
    assert soon(statuses.serving)

    def shown() -> str:
        return graph.profile_page(author.login, viewer.uid).page.statuses[0]["message"]

    assert shown() == "on my profile"
    # A change nobody announced is not seen: the page serves what it kept...
    redis_conn.hset(keys.status_key(sid), "message", "edited")
    assert shown() == "on my profile"
    # ...until the change is published, as every script that changes a status does.
    redis_conn.publish(keys.STATUS_CHANGES_CHANNEL, keys.status_key(sid))
    assert soon(lambda: shown() == "edited")
