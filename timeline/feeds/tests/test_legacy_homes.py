"""Upgrading a Redis that holds homes stored the book's way (before homes were newest first):
`manage.py migrate_homes` retires them, and each is rebuilt at its owner's next read."""

from io import StringIO

from django.core.management import call_command

from socialsite import jobs
from timeline import keys
from timeline.feeds import homes
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses.selectors import get_status
from timeline.tests.pages import ids


def as_before_the_upgrade(redis_conn, uid: int) -> None:
    """Moves `uid`'s home back to how it was stored before: the old key, the book's
    scores (posted, newest highest), with the reposts it showed beside it."""
    home = keys.home_timeline_key(uid)
    entries = redis_conn.lrange(home, 0, -1)
    old = {status_id: get_status(status_id)["posted"] for status_id in entries}
    redis_conn.delete(home)
    redis_conn.zadd(keys.legacy_home_key(uid), old)
    redis_conn.zadd(keys.shown_reposts_key(keys.legacy_home_key(uid)), {"1": 2})


def migrate() -> str:
    out = StringIO()
    call_command("migrate_homes", stdout=out)
    return out.getvalue()


def test_old_homes_are_retired_and_rebuilt_newest_first_at_their_owners_next_read(
    make_user, redis_conn
):
    reader, idle, author = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    graph.follow_user(idle, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(3)]
    feeds.home_page(reader)  # a recent read: the upgrade still counts the home dropped
    for uid in (reader, idle):
        as_before_the_upgrade(redis_conn, uid)

    assert "Retired 2 old home timelines" in migrate()
    for uid in (reader, idle):
        legacy = keys.legacy_home_key(uid)
        assert not redis_conn.exists(legacy, keys.shown_reposts_key(legacy))
        assert redis_conn.zscore(keys.ACTIVE_HOMES, uid) == homes.LONG_AGO

    later = posting.post_status(author, "posted after the upgrade")
    home = feeds.home_page(reader)
    assert home.catching_up
    jobs.work(burst=True)
    home = feeds.home_page(reader)
    assert not home.catching_up
    assert ids(home.page.statuses) == [later, *posted[::-1]]
    assert "Retired 0 old home timelines" in migrate()  # idempotent


def test_migrating_leaves_homes_stored_as_lists_alone(make_user, redis_conn):
    reader, author = make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    posted = posting.post_status(author, "hello")
    before = redis_conn.lrange(keys.home_timeline_key(reader), 0, -1)
    assert "Retired 0 old home timelines" in migrate()
    assert redis_conn.lrange(keys.home_timeline_key(reader), 0, -1) == before
    assert ids(feeds.get_status_messages(reader)) == [posted]
    assert not feeds.home_page(reader).catching_up
