"""What following sets of every size cost at 1,000,000 users: a scaled-down network
has none past its own size (1,500 users: none past 1,499 follows), while the seed's
log-normal follow counts (timeline.ops.seeding._pick_follows, mean 200) reach ~16,000
at 1,000,000 users, and the sets past the compact limit are what costs.

`bytes_by_size` builds following sets of sizes up to 35,000 (synthetic uids, distinct
follow times), the site's way (one follow at a time through the follow script, which
moves them into buckets past FOLLOWING_SPLIT: timeline.follow_sets.following) and the old way
(one sorted set), and measures each key by key (MEMORY USAGE). `following_counts` is
the seed's log-normal at 1,000,000 users, by quantile. Their product is the bytes."""

import math
from statistics import NormalDist

from django.conf import settings

from accounts.keys import user_key
from timeline import keys
from timeline.follow_sets import following

from .follower_sets import measured_sizes, set_bytes

FOLLOWS_EACH = 200
SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_000, 2_000, 5_000, 10_000, 35_000)
# Quantiles of the number each user follows: fine enough to see the 1.4% past 1,100.
QUANTILES = 10_000
_uids = iter(range(30_000_000, 10**12))


def build(conn, uid: int, size: int, *, bucketed: bool) -> list[str]:
    """`size` synthetic follows of `uid` at distinct times, one at a time through the
    follow script (`bucketed`) or in one sorted set; returns the keys that may hold them."""
    followees = [next(_uids) for _ in range(size)]
    if not bucketed:
        for start in range(0, size, 10_000):
            part = followees[start : start + 10_000]
            conn.zadd(
                keys.following_key(uid), {f: 1_700_000_000 + start + i for i, f in enumerate(part)}
            )
        return [keys.following_key(uid)]
    for start in range(0, size, 1_000):
        pipe = conn.pipeline(transaction=False)
        for i, followee in enumerate(followees[start : start + 1_000], start=start):
            following.queue_follow(
                pipe, uid, other=followee, since=1_700_000_000 + i, channel="", event=""
            )
        pipe.execute()
    conn.delete(user_key(uid))
    return following.all_keys(uid)


def bytes_by_size(conn, sizes=SIZES, *, bucketed: bool) -> dict[int, int]:
    """MEMORY USAGE of a following set of each of `sizes` (and of sizes just past the
    compact limit and the split), key by key, built as `build` says."""
    return measured_sizes(
        conn,
        sizes,
        settings.FOLLOWING_SPLIT,
        lambda uid, size: build(conn, uid, size, bucketed=bucketed),
    )


def following_counts(users: int, follows_each: int = FOLLOWS_EACH) -> list[int]:
    """How many each user follows at `users`, one a quantile (QUANTILES of them): the
    seed's log-normal with mean `follows_each`, at least 1, at most everyone else."""
    spread = NormalDist(math.log(follows_each) - 0.5, 1)
    return [
        min(users - 1, max(1, round(math.exp(spread.inv_cdf((q + 0.5) / QUANTILES)))))
        for q in range(QUANTILES)
    ]


def following_bytes(users: int, counts: list[int], measured: dict[int, int]) -> float:
    """Bytes of every user's following set: `users` spread evenly over `counts`."""
    return users / len(counts) * sum(set_bytes(measured, n) for n in counts)


def share_in_sets_over(counts: list[int], size: int) -> float:
    """The share of all follows that sit in sets of more than `size`."""
    return sum(n for n in counts if n > size) / sum(counts)
