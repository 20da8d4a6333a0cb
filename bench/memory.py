"""7. Memory: what one profile, one status and one home-timeline entry cost in Redis
(MEMORY USAGE), and what a whole seeded network adds to used_memory."""

import random

from socialsite import jobs
from timeline import keys
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses import services as statuses

from . import seed
from .context import Context
from .measure import Row, Size
from .pages import author_with_statuses

HOME_ENTRIES = 1_000


def usage(conn, key: str) -> int:
    # SAMPLES 0 measures every element, not an estimate from a few.
    return conn.memory_usage(key, samples=0)


def run(ctx: Context) -> list[Row]:
    conn, plan = ctx.conn, ctx.plan
    uid = seed.user("memory")
    status_id = statuses.create_status(uid, "x" * 140)
    author = author_with_statuses(HOME_ENTRIES)
    graph.follow_user(uid, author)
    home_entries = conn.zcard(keys.home_timeline_key(uid))
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
    return rows
