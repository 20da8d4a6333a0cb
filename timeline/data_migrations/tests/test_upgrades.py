"""A store written in each older layout still supported is upgraded by `manage.py migrate`
and then reads as a store written now does. The old layouts are written here as they
were kept (raw keys: this package owns the upgrades from them); the results are read
through the selectors."""

import importlib
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from accounts.keys import user_key
from socialsite import jobs
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.notifications import selectors as notifications
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.search import selectors as search
from timeline.statuses import layout
from timeline.statuses.selectors import get_status
from timeline.tests.pages import ids

home_lists = importlib.import_module("timeline.data_migrations.0001_home_lists")

pytestmark = pytest.mark.django_db


def migrate() -> list[str]:
    """`manage.py migrate` (quiet, as `make run` runs it): what it said, line by line."""
    out = StringIO()
    call_command("migrate", verbosity=0, stdout=out)
    return out.getvalue().splitlines()


def as_a_sorted_set(redis_conn, uid: int) -> None:
    """Stores `uid`'s home as before feeds.home_list: a sorted set scored by negated
    microseconds of each status's posted time."""
    home = keys.home_timeline_key(uid)
    entries = redis_conn.lrange(home, 0, -1)
    scored = {sid: -round(get_status(int(sid))["posted"] * 1e6) for sid in entries}
    redis_conn.delete(home)
    redis_conn.zadd(home, scored)


def as_the_books_home(redis_conn, uid: int) -> None:
    """Stores `uid`'s home as the book did (home:{uid}, scored by posted time), with the
    reposts it showed beside it."""
    home = keys.home_timeline_key(uid)
    entries = redis_conn.lrange(home, 0, -1)
    redis_conn.delete(home)
    book = home_lists.book_home_key(uid)
    redis_conn.zadd(book, {sid: get_status(int(sid))["posted"] for sid in entries})
    redis_conn.zadd(keys.shown_reposts_key(book), {"1": 2})


def as_a_status_before_its_layout(redis_conn, status_id: int) -> None:
    """An `id` field, and `posted` as a float's text instead of microseconds under 't'."""
    key = keys.status_key(status_id)
    posted = get_status(status_id)["posted"]
    redis_conn.hdel(key, layout.POSTED_FIELD)
    redis_conn.hset(key, mapping={"id": status_id, "posted": repr(posted)})


def as_an_old_word_index(redis_conn, words: dict[int, tuple[str, ...]]) -> None:
    """The word index as kept before its sets: a sorted set per word and shard."""
    for key in [*redis_conn.scan_iter(match="w:*"), *redis_conn.scan_iter(match="wb:*")]:
        redis_conn.delete(key)
    for status_id, found in words.items():
        for word in found:
            redis_conn.zadd(f"search:{{s0}}:w:{word}", {status_id: status_id})


def as_before_the_marks(redis_conn, *uids: int) -> None:
    for uid in uids:
        redis_conn.delete(keys.liked_key(uid), keys.reposted_key(uid))


def as_notifications_naming_logins(redis_conn, uid: int, entries: dict[str, float]) -> None:
    """ "kind:object:actor uid:actor login" scored in Unix seconds, as before compact members."""
    redis_conn.delete(keys.notifications_key(uid), keys.mention_notifications_key(uid))
    redis_conn.zadd(keys.notifications_key(uid), entries)


def test_a_store_in_every_older_layout_is_upgraded_and_reads_as_a_new_one(make_user, redis_conn):
    reader, idle, author, fan = (make_user(login) for login in ("reader", "idle", "author", "fan"))
    others = [make_user().uid for _ in range(5)]
    # Sets one key kept before pieces and buckets: written below the thresholds of then.
    with override_settings(FOLLOWERS_PIECE_SIZE=100, FOLLOWING_SPLIT=100):
        for uid in (reader.uid, idle.uid, *others):
            graph.follow_user(uid, author.uid)
        for other in others:
            graph.follow_user(fan.uid, other)
    # Pieces are cut between follow times: the follows above, a second apart.
    followers = [reader.uid, idle.uid, *others]
    redis_conn.zadd(keys.followers_key(author.uid), {f: 1000 + n for n, f in enumerate(followers)})
    posted = [posting.post_status(author.uid, f"migrated words {n}") for n in range(3)]
    reactions.like(fan.uid, posted[0])
    reactions.repost(fan.uid, posted[1])
    feeds.home_page(idle.uid)  # a recent read: the upgrade still counts the home dropped
    statuses = {status_id: get_status(status_id) for status_id in posted}

    as_a_sorted_set(redis_conn, reader.uid)
    as_the_books_home(redis_conn, idle.uid)
    for status_id in posted:
        as_a_status_before_its_layout(redis_conn, status_id)
    as_an_old_word_index(redis_conn, {sid: ("migrated", "words") for sid in posted})
    as_before_the_marks(redis_conn, fan.uid)
    as_notifications_naming_logins(
        redis_conn, author.uid, {f"follow:0:{reader.uid}:reader": 1_764_000_000.5}
    )
    redis_conn.delete(keys.DATA_VERSION)  # written before versions existed

    with override_settings(FOLLOWERS_PIECE_SIZE=3, FOLLOWING_SPLIT=4):
        said = migrate()
        assert [line for line in said if not line.startswith("  ")] == [
            "Redis data migration 0001: home timelines become lists; homes kept the book's "
            "way are rebuilt when read",
            "Redis data migration 0002: big follower sets are cut into pieces",
            "Redis data migration 0003: big following sets move into buckets",
            "Redis data migration 0004: a word index of an older shape is rebuilt",
            "Redis data migration 0005: liked and reposted marks are built from likes and reposts",
            "Redis data migration 0006: notifications naming logins become compact",
            "Redis data migration 0007: statuses keep their posted time in microseconds and "
            "no id field",
            "Redis data migration 0008: tag search names only the tags of public statuses",
            "Redis data migration 0009: muted words become each user's Muted words filter",
        ]
        for step in (
            "  Converted 1 home timelines to lists.",
            "  Retired 1 old home timelines (rebuilt when next read).",
            "  Cut 1 follower sets into 2 more pieces.",
            "  Moved 5 follows of 1 following sets into buckets.",
            "  old word index: 2 keys deleted",
            "  Converted 1 notifications to the compact form.",
            "  Rewrote 3 statuses in the compact layout.",
        ):
            assert step in said, said
        assert migrate() == []  # once

        # Homes: the sorted set reads as a list; the book's is rebuilt at the next read.
        assert ids(feeds.get_status_messages(reader.uid)) == posted[::-1]
        assert feeds.home_page(idle.uid).catching_up
        jobs.work(burst=True)
        assert ids(feeds.home_page(idle.uid).page.statuses) == posted[::-1]
        # Followers in pieces and following in buckets, all still there.
        page, more = graph_selectors.followers_page(author.uid, 1, 10, viewer=author.uid)
        assert not more
        assert [user["id"] for user in page] == followers[::-1]
        assert all(graph_selectors.is_following(fan.uid, other) for other in others)
        assert graph.unfollow_user(others[0], author.uid) is True
        # Statuses read with their own time, found by their words, marked as reacted to.
        assert {status_id: get_status(status_id) for status_id in posted} == statuses
        assert ids(search.search_statuses("migrated").statuses) == posted[::-1]
        shown = [feeds.shown_status(sid, viewer=fan.uid) for sid in posted[:2]]
        assert [(s["liked"], s["reposted"]) for s in shown] == [(True, False), (False, True)]
        page = notifications.notifications_page(author.uid, 1, 40).notifications
        assert [n.text for n in page] == ["@reader followed you"]


def test_a_status_before_its_layout_keeps_its_exact_time(make_user, redis_conn):
    status_id = posting.post_status(make_user().uid, "an old one")
    key = keys.status_key(status_id)
    redis_conn.hdel(key, layout.POSTED_FIELD)
    redis_conn.hset(key, mapping={"id": status_id, "posted": "1795667500.5741959"})
    redis_conn.set(keys.DATA_VERSION, 6)
    assert "  Rewrote 1 statuses in the compact layout." in migrate()
    assert redis_conn.hget(key, layout.POSTED_FIELD) == "1795667500574196"
    assert get_status(status_id)["posted"] == 1795667500.574196


def test_a_status_deleted_before_the_upgrade_stays_gone(make_user, redis_conn):
    author = make_user().uid
    status_id = posting.post_status(author, "short lived")
    assert posting.delete_status(author, status_id) is True
    redis_conn.set(keys.DATA_VERSION, 6)
    assert "  Rewrote 0 statuses in the compact layout." in migrate()
    assert get_status(status_id) is None
    assert not redis_conn.exists(keys.status_key(status_id))


def stored(redis_conn, uid: int) -> list[int]:
    return [int(i) for i in redis_conn.lrange(keys.home_timeline_key(uid), 0, -1)]


def test_sorted_set_homes_are_converted_to_lists_in_place(make_user, redis_conn):
    reader, other, author = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    graph.follow_user(other, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(3)]
    for uid in (reader, other):
        as_a_sorted_set(redis_conn, uid)
    redis_conn.set(keys.DATA_VERSION, 0)
    assert "  Converted 2 home timelines to lists." in migrate()
    for uid in (reader, other):
        assert stored(redis_conn, uid) == posted[::-1]
    later = posting.post_status(author, "after the upgrade")
    assert ids(feeds.get_status_messages(reader)) == [later, *posted[::-1]]
    assert not feeds.home_page(reader).catching_up
    assert home_lists.convert_sorted_homes() == 0  # idempotent
    assert stored(redis_conn, other) == [later, *posted[::-1]]


def test_homes_stored_as_lists_are_left_alone(make_user, redis_conn):
    reader, author = make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    posted = posting.post_status(author, "hello")
    before = redis_conn.lrange(keys.home_timeline_key(reader), 0, -1)
    redis_conn.set(keys.DATA_VERSION, 0)
    said = migrate()
    assert "  Converted 0 home timelines to lists." in said
    assert "  Retired 0 old home timelines (rebuilt when next read)." in said
    assert redis_conn.lrange(keys.home_timeline_key(reader), 0, -1) == before
    assert ids(feeds.get_status_messages(reader)) == [posted]
    assert not feeds.home_page(reader).catching_up


def test_the_books_homes_are_retired_and_rebuilt_newest_first_at_their_owners_next_read(
    make_user, redis_conn
):
    reader, idle, author = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    graph.follow_user(idle, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(3)]
    feeds.home_page(reader)  # a recent read: the upgrade still counts the home dropped
    for uid in (reader, idle):
        as_the_books_home(redis_conn, uid)
    redis_conn.set(keys.DATA_VERSION, 0)

    assert "  Retired 2 old home timelines (rebuilt when next read)." in migrate()
    for uid in (reader, idle):
        book = home_lists.book_home_key(uid)
        assert not redis_conn.exists(book, keys.shown_reposts_key(book))
        assert redis_conn.zscore(keys.ACTIVE_HOMES, uid) == home_lists.LONG_AGO
        assert redis_conn.hget(user_key(uid), "home_read") == str(home_lists.LONG_AGO)

    later = posting.post_status(author, "posted after the upgrade")
    home = feeds.home_page(reader)
    assert home.catching_up
    jobs.work(burst=True)
    home = feeds.home_page(reader)
    assert not home.catching_up
    assert ids(home.page.statuses) == [later, *posted[::-1]]
    assert home_lists.retire_book_homes() == 0  # idempotent
