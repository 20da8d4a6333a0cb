"""7. Memory: what one profile, one status and one home-timeline entry cost in Redis
(MEMORY USAGE), what a whole network made through the services adds to used_memory,
and a projection for a site of 1,000,000 users from a scaled-down one: its followers
projected from sets of every size measured on their own (bench.follower_sets), in
pieces as the site keeps them and in one key each as before, since a scaled-down
network has no set as big as a big site's."""

import random
import re
import time
from collections import Counter

from django.conf import settings

from accounts.keys import LOGIN_INDEX
from socialsite import jobs
from socialsite.redis import PackedPipeline, for_each_primary
from timeline import keys
from timeline.feeds import homes, refill
from timeline.graph import services as graph
from timeline.ops.seeding import seed_network
from timeline.posting import services as posting
from timeline.statuses import services as statuses

from . import follower_sets, following_sets, seed
from .context import Context
from .measure import Row, Size
from .pages import author_with_statuses

HOME_ENTRIES = 1_000
# The site the issue sizes: 1,000,000 users following 200 each on average (power-law
# follower counts), 20 statuses each, 10% of them reading their home in two weeks.
SITE_USERS = 1_000_000
FOLLOWS_EACH = 200
STATUSES_EACH = 20
ACTIVE_SHARE = 0.10
TARGET_BYTES = 16 * 10**9
# The projection with sorted sets compact (listpacks; ziplists in Redis 6) up to 256
# entries (follow sets, small homes) and up to a full home (1,100): the second makes a
# delivery into a full home slower (docs/storage.md). The site's other encodings
# (embedded_redis.COMPACT_ENCODINGS) stay as they are.
ZSET_LIMITS = ("256", "1100")
ZSET_LIMIT = "zset-max-ziplist-entries"


def usage(conn, key: str) -> int:
    # SAMPLES 0 measures every element, not an estimate from a few.
    return conn.memory_usage(key, samples=0)


def run(ctx: Context) -> list[Row]:
    conn, plan = ctx.conn, ctx.plan
    uid = seed.user("memory")
    status_id = statuses.create_status(uid, "x" * 140)
    author = author_with_statuses(HOME_ENTRIES)
    graph.follow_user(uid, author)
    home_entries = conn.llen(keys.home_timeline_key(uid))
    rows = [
        Row("memory", "user profile (hash)", Size(usage(conn, keys.user_key(uid)), "B")),
        Row("memory", "status, 140 chars", Size(usage(conn, keys.status_key(status_id)), "B")),
        Row(
            "memory",
            f"home entry, at {home_entries:,} entries",
            Size(usage(conn, keys.home_timeline_key(uid)) / home_entries, "B"),
        ),
    ]

    before = conn.info("memory")["used_memory"]
    users = [seed.user("member") for _ in range(plan.network_users)]
    pick = random.Random(5)
    for uid in users:
        others = [o for o in pick.sample(users, plan.network_follows_each + 1) if o != uid]
        for other in others[: plan.network_follows_each]:
            graph.follow_user(uid, other)
    for n in range(plan.network_posts_each):
        for uid in users:
            posting.post_status(uid, f"post {n} " + "x" * 90)
    jobs.work(burst=True)
    total = conn.info("memory")["used_memory"] - before
    network = (
        f"{plan.network_users:,} users, {plan.network_follows_each} follows"
        f" and {plan.network_posts_each} posts each"
    )
    rows.append(
        Row("memory", network, Size(total, "B"), notes={"bytes_per_user": total / len(users)})
    )
    site = conn.config_get(ZSET_LIMIT)[ZSET_LIMIT]
    counts = follower_sets.follower_counts(SITE_USERS, FOLLOWS_EACH)
    sizes = tuple(n for n in follower_sets.SIZES if n <= plan.follower_set_largest)
    following_sizes = tuple(n for n in following_sets.SIZES if n <= plan.follower_set_largest)
    try:
        for limit in ZSET_LIMITS:
            conn.config_set(ZSET_LIMIT, limit)
            label = f" ({ZSET_LIMIT} {limit}{', as the site runs' if limit == site else ''})"
            rows.extend(
                projection(conn, plan.projection_users, label, counts, sizes, following_sizes)
            )
    finally:
        conn.config_set(ZSET_LIMIT, site)
    return rows


def family(name: str) -> str:
    """A key's family: its first two parts with hash tags blanked (`w:{*}`,
    `following:{*}`, `users:name_search`)."""
    return ":".join(re.sub(r"\{[^}]*\}", "{*}", name).split(":")[:2])


def usage_by_kind(conn) -> tuple[dict[str, int], Counter]:
    """MEMORY USAGE of every key, summed by kind: statuses, home timelines, and the rest
    (profiles, the follow graph, profile, mention and tag timelines, indexes); and by
    family (`family`)."""
    names = list(conn.scan_iter(count=10_000))
    pipe = PackedPipeline(conn)
    for name in names:
        pipe.execute_command("MEMORY", "USAGE", name, "SAMPLES", 0)
    totals = {"statuses": 0, "homes": 0, "home_entries": 0, "rest": 0}
    families: Counter = Counter()
    home_names = []
    home_family = family(keys.home_timeline_key(0))
    for name, used in zip(names, pipe.execute(), strict=True):
        families[family(name)] += used or 0
        kind = name.split(":", 1)[0]
        if kind == "status":
            totals["statuses"] += used or 0
        elif family(name) == home_family and not name.endswith(":reposts"):
            totals["homes"] += used or 0
            home_names.append(name)
        else:
            totals["rest"] += used or 0
    pipe = PackedPipeline(conn)
    for name in home_names:
        pipe.llen(name)
    totals["home_entries"] = sum(pipe.execute())
    return totals, families


def keys_by_family(conn) -> Counter:
    """How many keys each family (`family`) has."""
    return Counter(map(family, conn.scan_iter(count=10_000)))


def key_table_bytes(conn) -> int:
    """The bytes of the keyspace's bucket array: a pointer a slot, the slots a power of
    two >= the keys (MEMORY USAGE counts each key's entry and object, not its slot)."""
    stats = conn.memory_stats()
    entries = sum(
        value["overhead.hashtable.main"] for name, value in stats.items() if name.startswith("db.")
    )
    # Each key's dict entry (24 B) and object header (16 B) are in that figure too.
    return entries - 40 * conn.dbsize()


def projection(
    conn, users: int, label: str, counts: list, sizes: tuple, following_sizes: tuple
) -> list[Row]:
    """A network of `users` shaped like the issue's site (seeding.seed_network: power-law
    follows), 10% of them active (their homes read now), the rest away for longer than
    HOME_INACTIVE_DAYS and their homes dropped; its bytes per user, per status and per
    home entry, and those scaled to SITE_USERS. Followers are not scaled from it but
    projected: `counts` (follower_sets.follower_counts at SITE_USERS) times the bytes of
    sets of `sizes` measured key by key, in pieces (the site) and in one key (before);
    following sets the same way (bench.following_sets: the seed's log-normal counts,
    sets of `following_sizes` in buckets and in one key)."""
    for server in for_each_primary(conn):
        server.flushdb()  # the network alone is counted
    empty = conn.info("memory")["used_memory"]
    made = seed_network(
        users=users,
        follows_per_user=min(FOLLOWS_EACH, users - 1),
        posts_per_user=STATUSES_EACH,
        seed=20,
    )
    uids = [int(uid) for uid in conn.hvals(LOGIN_INDEX)]
    active = set(random.Random(20).sample(uids, max(1, round(ACTIVE_SHARE * len(uids)))))
    now = time.time()
    away = homes.inactive_before(now) - homes.DAY
    for uid in uids:
        refill.note_home_read(conn, uid, {}, now=now if uid in active else away)
    homes.drop_inactive_homes(now=now)
    used, families = usage_by_kind(conn)
    # What the keys' MEMORY USAGE leaves out (the keyspace's hash table, the allocator's
    # own): in the projection, as the network's share a user.
    unattributed = conn.info("memory")["used_memory"] - empty - sum(families.values())
    key_table = key_table_bytes(conn)
    key_counts = keys_by_family(conn)
    followers_here = families[family(keys.followers_key(0))]
    following_here = families[family(keys.following_key(0))]
    per_user = (used["rest"] - followers_here - following_here) / users
    graph_bytes = following_here + followers_here
    follows_each = following_sets.following_counts(SITE_USERS, FOLLOWS_EACH)
    following_one_key = following_sets.bytes_by_size(conn, following_sizes, bucketed=False)
    following_bucketed = following_sets.bytes_by_size(conn, following_sizes, bucketed=True)
    follows = {
        "in buckets": following_sets.following_bytes(SITE_USERS, follows_each, following_bucketed),
        "one key each": following_sets.following_bytes(SITE_USERS, follows_each, following_one_key),
        "scaled from the network": SITE_USERS * following_here / users,
    }
    one_key = follower_sets.bytes_by_size(conn, sizes, pieced=False)
    in_pieces = follower_sets.bytes_by_size(conn, sizes, pieced=True)
    followers = {
        "in pieces": follower_sets.followers_bytes(counts, in_pieces),
        "one key each": follower_sets.followers_bytes(counts, one_key),
        "scaled from the network": SITE_USERS * followers_here / users,
    }
    follow_notifications = follower_sets.followers_bytes(
        counts, follower_sets.notification_bytes_by_size(conn, sizes)
    )
    index_sets = families[family(keys.search_ids_key(0, ""))]
    index_buckets = families[family(keys.search_bucket_key(0, ""))]
    index_bytes = index_sets + index_buckets
    per_status = used["statuses"] / made.statuses
    per_entry = used["homes"] / max(1, used["home_entries"])
    entries_per_active = used["home_entries"] / len(active)
    site = {
        "users": SITE_USERS * per_user,
        "following": follows["in buckets"],
        "followers": followers["in pieces"],
        "statuses": SITE_USERS * STATUSES_EACH * per_status,
        "homes": SITE_USERS * ACTIVE_SHARE * entries_per_active * per_entry,
        # Each follow notifies the one followed (kept up to NOTIFICATIONS_KEPT each).
        "follow notifications": follow_notifications,
        # What Redis holds beyond the keys' MEMORY USAGE (the keyspace's slots, the
        # allocator's rounding up), a user's share as the network showed it.
        "beyond the keys": SITE_USERS * unattributed / users,
    }
    total = sum(site.values())
    before = total - followers["in pieces"] + followers["one key each"]
    following_before = total - follows["in buckets"] + follows["one key each"]
    largest = max(sizes)
    largest_following = max(following_sizes)
    case = (
        f"{users:,} users, {made.follows / users:.0f} follows and"
        f" {made.statuses / users:.0f} statuses each, {ACTIVE_SHARE:.0%} active{label}"
    )
    notes = {
        "bytes_per_user": per_user,
        "bytes_per_status": per_status,
        "bytes_per_home_entry": per_entry,
        "home_entries_per_active_user": entries_per_active,
        "site_bytes": site,
        "bytes_per_user_by_family": {
            name: used / users for name, used in families.most_common() if used >= users
        },
        "follow_graph_bytes_per_edge": graph_bytes / max(1, made.follows),
        "search_index_bytes_per_status": index_bytes / made.statuses,
        "search_index_bytes_per_status_sets_buckets": [
            index_sets / made.statuses,
            index_buckets / made.statuses,
        ],
        "used_memory_beyond_the_keys_per_user": unattributed / users,
        # Of which the key table's slots; the rest is the allocator's rounding up (a
        # dict entry of 24 B takes 32, a compact value its size class).
        "key_table_bytes_per_user": key_table / users,
        "keys_per_user": sum(key_counts.values()) / users,
        "keys_per_user_by_family": {
            name: count / users for name, count in key_counts.most_common() if count >= users / 100
        },
        "site_followers_bytes": followers,
        "site_following_bytes": follows,
        "following_set_bytes_in_buckets": following_bucketed,
        "following_set_bytes_one_key": following_one_key,
        "share_of_follows_in_following_sets_over": {
            n: following_sets.share_in_sets_over(follows_each, n) for n in (1_000, 1_100, 10_000)
        },
        "follower_set_bytes_in_pieces": in_pieces,
        "follower_set_bytes_one_key": one_key,
        "share_of_follows_in_sets_over": {
            n: follower_sets.share_in_sets_over(counts, n) for n in (250, 1_000, 10_000)
        },
    }
    return [
        Row(
            "memory",
            f"{case}: per user (profile, own timelines; following and followers below)",
            Size(per_user, "B"),
        ),
        *(
            Row(
                "memory",
                f"a follower, in a set of {largest:,} {how}{label}",
                Size(measured[largest] / largest, "B"),
            )
            for how, measured in (("in pieces", in_pieces), ("in one key", one_key))
        ),
        *(
            Row(
                "memory",
                f"followers of {SITE_USERS:,} users, power-law counts, {how}{label}",
                Size(followers[how], "B"),
            )
            for how in ("in pieces", "one key each")
        ),
        *(
            Row(
                "memory",
                f"a follow, in a following set of {largest_following:,} {how}{label}",
                Size(measured[largest_following] / largest_following, "B"),
            )
            for how, measured in (
                ("in buckets", following_bucketed),
                ("in one key", following_one_key),
            )
        ),
        *(
            Row(
                "memory",
                f"following sets of {SITE_USERS:,} users, log-normal counts, {how}{label}",
                Size(follows[how], "B"),
            )
            for how in ("in buckets", "one key each", "scaled from the network")
        ),
        Row(
            "memory",
            f"follow notifications of {SITE_USERS:,} users, power-law counts,"
            f" up to {settings.NOTIFICATIONS_KEPT:,} each{label}",
            Size(follow_notifications, "B"),
        ),
        Row(
            "memory",
            f"{case}: Redis beyond the keys' MEMORY USAGE, per user",
            Size(unattributed / users, "B"),
        ),
        Row(
            "memory",
            f"{case}: of which the follow graph, per follow (following + followers)",
            Size(graph_bytes / max(1, made.follows), "B"),
        ),
        Row(
            "memory",
            f"{case}: of which the search word index, per status",
            Size(index_bytes / made.statuses, "B"),
        ),
        Row("memory", f"{case}: per status", Size(per_status, "B")),
        Row("memory", f"{case}: per home entry", Size(per_entry, "B")),
        Row(
            "memory",
            f"projected for {SITE_USERS:,} users{label}",
            Size(total, "B"),
            target=f"<= {TARGET_BYTES / 1e9:g} GB",
            met=total <= TARGET_BYTES,
            notes=notes,
        ),
        Row(
            "memory",
            f"projected for {SITE_USERS:,} users, followers in one key each as before{label}",
            Size(before, "B"),
        ),
        Row(
            "memory",
            f"projected for {SITE_USERS:,} users, following sets in one key each as before{label}",
            Size(following_before, "B"),
        ),
    ]
