"""19. Grouped notifications (Mastodon 4.3's /api/v2/notifications): a page of 40 groups
(40 statuses, each liked by FANS people: 40 x FANS notifications) as the client API
builds it (the notifications by id, what they are about, the groups, the Account and
Status entities), beside the site's own notifications page reading the same
notifications into the same groups (the same grouping, one function). p50 and round
trips a page."""

from django.conf import settings

from api import entities
from timeline.notifications import listing
from timeline.notifications.selectors import grouped, notifications_page, read_entries
from timeline.posting import services as posting
from timeline.reactions import services as reactions

from . import seed
from .context import Context
from .measure import Row, time_interleaved

GROUPS = 40
FANS = 5
SITE = "http://bench.example"
MAX_ROUND_TRIPS = 3


def grouped_page(uid: int) -> dict:
    """What the grouped endpoint reads and builds for a first page of GROUPS groups."""
    entries = listing.page_by_id(uid, limit=GROUPS, groups=True)
    groups = grouped(entries, read_entries(uid, entries))
    statuses, people = entities.statuses_and_accounts(
        SITE,
        [group.status for group in groups if group.status],
        [u for g in groups for u in g.uids],
    )
    return {"groups": groups, "accounts": people, "statuses": statuses}


def run(ctx: Context) -> list[Row]:
    fans_each = FANS if GROUPS * FANS <= settings.NOTIFICATIONS_KEPT else 1
    reader = seed.user("notified")
    fans = [seed.user("fan") for _ in range(fans_each)]
    for n in range(GROUPS):
        status_id = posting.post_status(reader, f"status {n} people like")
        for fan in fans:
            reactions.like(fan, status_id)
    notifications = GROUPS * fans_each
    assert len(grouped_page(reader)["groups"]) == GROUPS
    assert len(notifications_page(reader, 1, notifications).notifications) == GROUPS
    page = time_interleaved(
        {
            "grouped": lambda _: grouped_page(reader),
            "site": lambda _: notifications_page(reader, 1, notifications),
        },
        ctx.plan.page_samples,
        ctx.counter,
    )
    return [
        Row(
            "notifications",
            f"grouped notifications (API v2), {GROUPS} groups of {notifications:,}",
            page["grouped"],
            "the notifications page, the same notifications and groups",
            page["site"],
            target=f"<= {MAX_ROUND_TRIPS} RT",
            met=page["grouped"].round_trips is not None
            and page["grouped"].round_trips <= MAX_ROUND_TRIPS,
        )
    ]
