"""The repair of follow options (timeline.follow_sets.options), for `manage.py repair`
(ops.maintenance): each option is kept on both sides; the follower's side (their
hidden_reposters and notified_of sets) is the truth, and the followed side
(reposts_hidden_from, subscribers) gets back what it misses and loses what the
follower's side doesn't say."""

import time
from collections.abc import Callable, Iterator

from accounts import keys as account_keys
from socialsite.redis import Client

from .. import keys

CHUNK = 1000
Found = tuple[str, str, str]
# (the follower's side key, the followed's side key, whether the followed side is sorted)
SIDES = (
    (keys.hidden_reposters_key, keys.reposts_hidden_from_key, False),
    (keys.notified_of_key, keys.subscribers_key, True),
)


def check_follow_options(
    conn: Client, *, fix: bool, progress: Callable[[str], None]
) -> Iterator[Found]:
    """Every follow options finding, fixed as it is found if `fix`."""
    for follower_side, followed_side, ranked in SIDES:
        yield from _missing(conn, follower_side, followed_side, ranked, fix)
        yield from _extra(conn, follower_side, followed_side, ranked, fix)
    progress("follow options checked")


def _missing(conn, follower_side, followed_side, ranked: bool, fix: bool) -> Iterator[Found]:
    for key in conn.scan_iter(match=follower_side("*"), count=CHUNK):
        uid = account_keys.hash_tag_id(key)
        for other in conn.smembers(key):
            back = followed_side(other)
            present = conn.zscore(back, uid) is not None if ranked else conn.sismember(back, uid)
            if not present:
                if fix:
                    if ranked:
                        conn.zadd(back, {uid: int(time.time())}, nx=True)
                    else:
                        conn.sadd(back, uid)
                yield "follow options", back, f"misses follower {uid}"


def _extra(conn, follower_side, followed_side, ranked: bool, fix: bool) -> Iterator[Found]:
    for key in conn.scan_iter(match=followed_side("*"), count=CHUNK):
        other = account_keys.hash_tag_id(key)
        members = conn.zrange(key, 0, -1) if ranked else conn.smembers(key)
        for uid in members:
            if not conn.sismember(follower_side(uid), other):
                if fix:
                    if ranked:
                        conn.zrem(key, uid)
                    else:
                        conn.srem(key, uid)
                yield "follow options", key, f"lists {uid}, whose own side doesn't say so"
