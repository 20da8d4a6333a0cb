"""Filling Redis quickly for the bench: real services where the figure depends on
them, raw pipelined writes (the same key names) where only the shape matters."""

import itertools

from accounts.services import create_user
from timeline import keys

from . import book

_logins = itertools.count(1)
# Followers made in bulk have no profile (delivery never reads it); their uids start
# far above the real users'.
_bulk_uids = itertools.count(10_000_000)


def user(prefix: str = "bench") -> int:
    return create_user(f"{prefix}{next(_logins)}", prefix.title())


def bulk_followers(conn, uid: int, count: int, chunk: int = 10_000) -> list[int]:
    """Makes `count` profile-less users follow `uid`, at distinct follow times."""
    followers = [next(_bulk_uids) for _ in range(count)]
    for start in range(0, count, chunk):
        part = followers[start : start + chunk]
        conn.zadd(keys.followers_key(uid), {f: 1.0 + start + i for i, f in enumerate(part)})
    conn.hset(keys.user_key(uid), "followers", conn.zcard(keys.followers_key(uid)))
    return followers


def drop_homes(conn, uids: list[int], chunk: int = 10_000) -> None:
    """Frees the home timelines of bulk followers (ours and the book's) once a part is
    done with them."""
    for start in range(0, len(uids), chunk):
        part = uids[start : start + chunk]
        conn.unlink(*map(keys.home_timeline_key, part))
        conn.unlink(*map(book.home_timeline_key, part))


def full_homes(conn, uids: list[int], size: int, chunk: int = 100) -> None:
    """Fills the home timelines of `uids` (ours, lists of ids newest first, and the
    book's, scored its way) with `size` old entries each, as a live site's homes are (full)."""
    old = {str(-i): float(i) for i in range(1, size + 1)}  # ids no status has
    ours = sorted(old, key=int, reverse=True)
    for start in range(0, len(uids), chunk):
        pipe = conn.pipeline(transaction=False)
        for uid in uids[start : start + chunk]:
            pipe.rpush(keys.home_timeline_key(uid), *ours)
            pipe.zadd(book.home_timeline_key(uid), old)
        pipe.execute()
