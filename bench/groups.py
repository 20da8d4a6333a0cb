"""10. Groups: a post to a group of N members, delivered to their homes by the followers'
durable, chunked fan-out, beside a post to N followers in the same run; and a page of a
private group's timeline, as a member reads it, beside a page of its author's profile
(the same statuses, the same one rule)."""

import time

from socialsite import jobs
from timeline import keys
from timeline.feeds.selectors import posted_page
from timeline.groups import selectors as group_selectors
from timeline.groups import services as groups
from timeline.posting import services as posting

from . import seed
from .context import Context
from .fan_out import missed
from .measure import Row, rates_interleaved, time_interleaved

# A member's home gets a group's post by the followers' path (plus one read of the
# group's "show in home: off" set a job): the same path keeps most of its rate.
TARGET_OVER_FOLLOWERS = 0.7
PAGE_SIZE = 30
CHUNK = 10_000


def bulk_members(group_id: int, count: int) -> list[int]:
    """Makes `count` profile-less users members of the group at distinct join times."""
    members = [seed.bulk_uid() for _ in range(count)]
    for start in range(0, count, CHUNK):
        part = members[start : start + CHUNK]
        groups.add_members_in_bulk(group_id, {m: 1 + start + i for i, m in enumerate(part)})
    return members


def fan_out_rows(ctx: Context) -> list[Row]:
    conn = ctx.conn
    rows = []
    for size in ctx.plan.fan_out_sizes:
        star = seed.user("star")
        followers = seed.bulk_followers(conn, star, size)
        # Another author owns the group: a public group's post reaches its author's
        # followers outside the group too, which would double its deliveries.
        owner = seed.user("owner")
        group_id = groups.create_group(owner, f"bench{owner}", "Bench group")
        members = bulk_members(group_id, size)
        posted: list[int] = []

        def to_members() -> float:
            start = time.perf_counter()
            posted.append(posting.post_status(owner, "to the group", group=group_id))  # noqa: B023
            jobs.work(burst=True)
            return time.perf_counter() - start

        def to_followers() -> float:
            start = time.perf_counter()
            posting.post_status(star, "to the followers")  # noqa: B023
            jobs.work(burst=True)
            return time.perf_counter() - start

        # Every home exists from here on, as on a live site.
        to_members()
        to_followers()
        rates = rates_interleaved(
            {"members": to_members, "followers": to_followers},
            size,
            ctx.plan.fan_out_repeats,
            "deliveries",
        )
        missing = sum(missed(conn, members, status_id) for status_id in posted)
        ratio = rates["members"].per_s / rates["followers"].per_s
        rows.append(
            Row(
                "groups",
                f"group fan-out, {size:,} members",
                rates["members"],
                f"a post to {size:,} followers",
                rates["followers"],
                target=f">= {TARGET_OVER_FOLLOWERS:g}x follower fan-out, none missed",
                met=ratio >= TARGET_OVER_FOLLOWERS and not missing,
                notes={"members": size, "members_missed": missing},
            )
        )
        seed.drop_homes(conn, followers + members)
    return rows


def timeline_rows(ctx: Context) -> list[Row]:
    plan = ctx.plan
    owner, reader = seed.user("poster"), seed.user("reader")
    group_id = groups.create_group(owner, f"read{owner}", "Read", kind="private")
    groups.add_members_in_bulk(group_id, {reader: 1})
    for i in range(plan.profile_statuses):
        posting.post_status(owner, f"group status {i}", group=group_id)
    jobs.work(burst=True)
    profile = keys.profile_timeline_key(owner)
    got = time_interleaved(
        {
            "group": lambda _: group_selectors.group_page(group_id, reader, count=PAGE_SIZE),
            "profile": lambda _: posted_page(profile, 1, PAGE_SIZE, viewer=reader),
        },
        plan.page_samples,
        ctx.counter,
    )
    shown = len(group_selectors.group_page(group_id, reader, count=PAGE_SIZE).statuses)
    return [
        Row(
            "groups",
            f"group timeline, {PAGE_SIZE} of {plan.profile_statuses:,} (a private group, a member)",
            got["group"],
            "the author's profile page, same statuses",
            got["profile"],
            target="<= 1.5x the profile page's p50, every status shown",
            met=got["group"].p50_ms <= 1.5 * got["profile"].p50_ms and shown == PAGE_SIZE,
            notes={"shown": shown},
        )
    ]


def run(ctx: Context) -> list[Row]:
    jobs.ensure_group(ctx.conn)
    return fan_out_rows(ctx) + timeline_rows(ctx)
