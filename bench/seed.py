"""Filling Redis quickly for the bench: real services where the figure depends on
them, raw pipelined writes (the same key names) where only the shape matters."""

import contextlib
import itertools

from accounts.services import create_user
from timeline import keys
from timeline.follow_sets import followers as follower_sets

from . import book

# Redis's own default: the book's homes are made as a stock server makes them (a full
# home a skiplist), whatever the site's COMPACT_ENCODINGS say, so that the book does the
# same work as before the site's sorted sets were compact up to a full home's size.
STOCK_ZSET_ENTRIES = 128

_logins = itertools.count(1)
# Followers made in bulk have no profile (delivery never reads it); their uids start
# far above the real users'.
_bulk_uids = itertools.count(10_000_000)


def user(prefix: str = "bench") -> int:
    return create_user(f"{prefix}{next(_logins)}", prefix.title())


def bulk_uid() -> int:
    """A uid of no profile, for follows made in bulk."""
    return next(_bulk_uids)


def bulk_followers(conn, uid: int, count: int, chunk: int = 10_000) -> list[int]:
    """Makes `count` profile-less users follow `uid`, at distinct follow times: in our
    followers (cut into pieces as follows one by one make them) and the book's."""
    followers = [next(_bulk_uids) for _ in range(count)]
    for start in range(0, count, chunk):
        part = {f: 1.0 + start + i for i, f in enumerate(followers[start : start + chunk])}
        conn.zadd(keys.followers_key(uid), part)
        conn.zadd(book.followers_key(uid), part)
    follower_sets.split(conn, uid)
    conn.hset(keys.user_key(uid), "followers", count)
    return followers


def drop_homes(conn, uids: list[int], chunk: int = 10_000) -> None:
    """Frees the home timelines of bulk followers (ours and the book's) once a part is
    done with them."""
    for start in range(0, len(uids), chunk):
        part = uids[start : start + chunk]
        conn.unlink(*map(keys.home_timeline_key, part))
        conn.unlink(*map(book.home_timeline_key, part))


@contextlib.contextmanager
def ziplists_up_to(conn, entries: int):
    """Sorted sets of up to `entries` are ziplists meanwhile: Redis picks the encoding
    when it makes a set and converts a ziplist that grows past the limit at its next
    write, never back."""
    setting = "zset-max-ziplist-entries"
    was = conn.config_get(setting)[setting]
    conn.config_set(setting, entries)
    try:
        yield
    finally:
        conn.config_set(setting, was)


def book_home(conn, uid: int) -> None:
    """Makes the book's home of `uid` a skiplist, as a stock Redis keeps a full one,
    holding one entry dated far in the future (no status: a page never reads this home)
    that the book's trims and unfollows never take: its follows and unfollows write into
    it instead of making it again (an emptied sorted set is deleted) as a compact one."""
    with ziplists_up_to(conn, 0):
        conn.zadd(book.home_timeline_key(uid), {"0": 4e9})


def full_homes(conn, uids: list[int], size: int, chunk: int = 100) -> None:
    """Fills the home timelines of `uids` (ours, lists of ids newest first, and the
    book's, scored its way) with `size` old entries each, as a live site's homes are (full)."""
    old = {str(-i): float(i) for i in range(1, size + 1)}  # ids no status has
    ours = sorted(old, key=int, reverse=True)
    with ziplists_up_to(conn, STOCK_ZSET_ENTRIES):
        for start in range(0, len(uids), chunk):
            pipe = conn.pipeline(transaction=False)
            for uid in uids[start : start + chunk]:
                pipe.rpush(keys.home_timeline_key(uid), *ours)
                pipe.zadd(book.home_timeline_key(uid), old)
            pipe.execute()
