"""What follower sets of every size cost at 1,000,000 users: a scaled-down network has
no set as big as a big site's (1,500 users: none past 1,499 followers), so the bytes of
its followers say nothing about sets of many thousands.

Two parts. `bytes_by_size` builds follower sets of sizes up to 100,000 (synthetic uids,
distinct follow times), the site's way (one follow at a time through the graph's piece
scripts: timeline.follow_sets.followers) and the old way (one sorted set), and measures each key
by key (MEMORY USAGE). `follower_counts` is the seed's power law
(timeline.ops.seeding._pick_follows) worked out at 1,000,000 users: how many followers
the user at each popularity rank expects. Their product is the followers' bytes."""

import bisect
import math
from statistics import NormalDist

from django.conf import settings

from accounts.keys import user_key
from timeline import keys
from timeline.follow_sets import followers as follower_sets
from timeline.notifications import services as notifications
from timeline.ops import seeding

FOLLOWS_EACH = 200
# Set sizes measured (and those just past the compact limit and a piece's size);
# bytes between them are interpolated, and past the last extrapolated by its bytes a
# follower.
SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 250, 500, 1_000, 2_000, 10_000, 100_000)
QUICK_SIZES = tuple(size for size in SIZES if size <= 10_000)
# Rank buckets: ranks of about the same weight, each summed once (1,000,000 ranks
# otherwise); quantiles of the number each user follows.
BUCKET_GROWTH = 1.01
QUANTILES = 100
# Below this many expected followers, a user's count is spread (Poisson) before sizing.
SPREAD_BELOW = 50
_uids = iter(range(20_000_000, 10**12))


def build(conn, uid: int, size: int, *, pieced: bool) -> list[str]:
    """`size` synthetic followers of `uid` at distinct times, one follow at a time through
    the piece scripts (`pieced`) or in one sorted set; returns the keys that hold them."""
    followers = [next(_uids) for _ in range(size)]
    if not pieced:
        for start in range(0, size, 10_000):
            part = followers[start : start + 10_000]
            conn.zadd(keys.followers_key(uid), {f: start + i for i, f in enumerate(part)})
        return [keys.followers_key(uid)]
    for start in range(0, size, 1_000):
        pipe = conn.pipeline(transaction=False)
        for i, follower in enumerate(followers[start : start + 1_000], start=start):
            follower_sets.queue_add(pipe, uid, follower, 1_700_000_000 + i)
        pipe.execute()
    return follower_sets.all_keys(conn, uid)


def bytes_by_size(conn, sizes=SIZES, *, pieced: bool) -> dict[int, int]:
    """MEMORY USAGE of a follower set of each of `sizes` (and of sizes just past the
    compact limit and a piece's size), key by key, built as `build` says."""
    return measured_sizes(
        conn,
        sizes,
        settings.FOLLOWERS_PIECE_SIZE,
        lambda uid, size: build(conn, uid, size, pieced=pieced),
    )


def measured_sizes(conn, sizes, cut: int, make) -> dict[int, int]:
    """MEMORY USAGE, key by key, of a set of each of `sizes` and of sizes just past the
    compact limit and `cut` (where the site cuts such a set), each made by `make(uid,
    size)` for a new uid (returning its keys) and deleted once measured."""
    limit = int(conn.config_get("zset-max-ziplist-entries")["zset-max-ziplist-entries"])
    wanted = sorted({*sizes, *(n for n in (limit, limit + 1, cut, cut + 1) if n < max(sizes))})
    measured = {}
    for size in wanted:
        names = make(next(_uids), size)
        measured[size] = sum(conn.memory_usage(name, samples=0) or 0 for name in names)
        conn.delete(*names)
    return measured


def notification_bytes_by_size(conn, sizes=SIZES) -> dict[int, int]:
    """MEMORY USAGE of the notifications a user with each of `sizes` followers holds from
    their follows (one a follow, through the notification service, kept up to
    NOTIFICATIONS_KEPT), key by key: a network seeded without the services has none."""
    kept = settings.NOTIFICATIONS_KEPT
    measured: dict[int, int] = {}
    for size in sorted({min(size, kept) for size in sizes} | {kept}):
        uid = next(_uids)
        conn.hset(user_key(uid), "bench", 1)  # a notification needs its recipient
        for start in range(0, size, 1_000):
            pipe = conn.pipeline(transaction=False)
            for i in range(start, min(size, start + 1_000)):
                # Followers' uids as a site of 1,000,000 users has them (distinct: 7,919
                # is prime to it): a follow's member is the uid, its bytes the uid's size.
                actor = {"id": 1 + i * 7_919 % 1_000_000, "login": f"follower_{i}"}
                # Times as time.time() gives them (the service keeps whole milliseconds).
                when = 1_764_000_000.123456 + i * 61.7
                notifications.queue_notify(pipe, uid, notifications.FOLLOW, actor, when=when)
            pipe.execute()
        names = [keys.notifications_key(uid), keys.mention_notifications_key(uid)]
        measured[size] = sum(conn.memory_usage(name, samples=0) or 0 for name in names)
        conn.delete(user_key(uid), *names)
    return {size: measured[min(size, kept)] for size in sorted({*sizes, kept})}


def set_bytes(measured: dict[int, int], size: float) -> float:
    """Bytes of a follower set of `size` (0 for none), interpolated between the sizes
    measured, extrapolated past the last by its bytes a follower."""
    if size <= 0:
        return 0.0
    sizes = sorted(measured)
    if size >= sizes[-1]:
        return measured[sizes[-1]] * size / sizes[-1]
    at = bisect.bisect_left(sizes, size)
    if sizes[at] == size or at == 0:
        return measured[sizes[at]] * (size / sizes[at] if at == 0 else 1)
    low, high = sizes[at - 1], sizes[at]
    return measured[low] + (measured[high] - measured[low]) * (size - low) / (high - low)


def follower_counts(users: int, follows_each: int = FOLLOWS_EACH) -> list[tuple[int, float]]:
    """The seed's power law at `users`: [(ranks in a bucket, followers each expects)].

    Each user follows `wanted` others (log-normal, mean `follows_each`), the first
    `wanted` distinct of 3 x `wanted` draws weighted 1 / (rank + 1) ** ALPHA (the rest,
    if any, uniform): rank r is among them with probability 1 - (1 - p_r) ** d, d the
    draws that give `wanted` distinct, found for each quantile of `wanted`."""
    weights = [1 / (rank + 1) ** seeding.ALPHA for rank in range(users)]
    total = sum(weights)
    buckets: list[tuple[int, float]] = []  # (ranks, their probability each)
    start = 0
    while start < users:
        end = min(users, max(start + 1, int(start * BUCKET_GROWTH)))
        buckets.append((end - start, sum(weights[start:end]) / total / (end - start)))
        start = end

    def distinct(draws: float) -> float:
        return sum(n * (1 - (1 - p) ** draws) for n, p in buckets)

    spread = NormalDist(math.log(follows_each) - 0.5, 1)
    chances = [0.0] * len(buckets)
    for q in range(QUANTILES):
        wanted = min(users - 1, max(1, round(math.exp(spread.inv_cdf((q + 0.5) / QUANTILES)))))
        low, high = float(wanted), 3.0 * wanted
        fill = 0.0
        if distinct(high) < wanted:
            fill, low = (wanted - distinct(high)) / users, high
        for _ in range(25):
            middle = (low + high) / 2
            low, high = (middle, high) if distinct(middle) < wanted else (low, middle)
        for b, (_, p) in enumerate(buckets):
            chances[b] += (1 - (1 - p) ** high + fill) / QUANTILES
    return [(n, users * chance) for (n, _), chance in zip(buckets, chances, strict=True)]


def followers_bytes(counts: list[tuple[int, float]], measured: dict[int, int]) -> float:
    """Bytes of every user's followers: for each rank bucket, its users times the bytes
    of a set of the count they expect (spread as Poisson below SPREAD_BELOW)."""
    total = 0.0
    for ranks, expected in counts:
        if expected >= SPREAD_BELOW:
            total += ranks * set_bytes(measured, expected)
            continue
        chance, each = math.exp(-expected), 0.0
        for k in range(1, 4 * SPREAD_BELOW):
            chance *= expected / k
            each += chance * set_bytes(measured, k)
        total += ranks * each
    return total


def share_in_sets_over(counts: list[tuple[int, float]], size: int) -> float:
    """The share of all follows that sit in sets of more than `size`."""
    follows = sum(ranks * expected for ranks, expected in counts)
    return sum(ranks * n for ranks, n in counts if n > size) / follows
