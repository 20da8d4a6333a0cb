"""Grouped notifications (Mastodon 4.3's /api/v2/notifications): the notifications
grouped as the site's notifications page groups them (selectors.grouped: likes of one
status together, follows together), with the accounts and statuses they name listed
once beside the groups."""

from timeline.notifications import listing, services
from timeline.notifications.selectors import (
    Entry,
    Notification,
    group_key,
    grouped,
    read_entries,
)

from .. import entities
from ..http import ApiError, ApiRequest, ApiResult, caller_uid, endpoint, limit_param, params
from .notifications import (
    TYPES,
    UNREAD_DEFAULT,
    UNREAD_MAX,
    group_entity,
    id_links,
    kinds_param,
    page_params,
    type_list,
)

# How many of a group's accounts its entry names (Mastodon's sample_account_ids).
SAMPLE_ACCOUNTS = 8
# A group of a type the client didn't ask to group (grouped_types[]) is one group per
# notification, keyed so (as Mastodon's).
UNGROUPED = "ungrouped-"


def split_ungrouped(
    groups: list[Notification], grouped_types: list[str] | None
) -> list[Notification]:
    """`groups`, with each group of a type not in `grouped_types` (when given) one group
    per notification."""
    if grouped_types is None:
        return groups
    split: list[Notification] = []
    for group in groups:
        if TYPES[group.kind] in grouped_types:
            split.append(group)
            continue
        for index, notification_id in enumerate(group.ids):
            split.append(
                Notification(
                    kind=group.kind,
                    logins=[group.logins[index]],
                    when=services.time_of(notification_id),
                    status=group.status,
                    uids=[group.uids[index]],
                    group=group.group,
                    people=[group.people[index]],
                    key=f"{UNGROUPED}{notification_id}",
                    ids=[notification_id],
                )
            )
    return split


def grouped_results(request: ApiRequest, uid: int, entries: list[Entry], **options) -> dict:
    """Mastodon's GroupedNotificationsResults of `entries` (newest first)."""
    groups = split_ungrouped(grouped(entries, read_entries(uid, entries)), **options)
    site = entities.site_of(request)
    statuses, people = entities.statuses_and_accounts(
        site,
        [group.status for group in groups if group.status],
        [u for g in groups for u in g.uids],
    )
    by_id = {int(status["id"]): status for status in statuses}
    shown = [group for group in groups if group.status is None or int(group.status["id"]) in by_id]
    return {
        "accounts": list({u: people[u] for g in shown for u in g.uids if u in people}.values()),
        "statuses": [
            by_id[i] for i in dict.fromkeys(int(g.status["id"]) for g in shown if g.status)
        ],
        "notification_groups": [
            {
                "group_key": group.key,
                "notifications_count": len(group.ids),
                "type": TYPES[group.kind],
                "most_recent_notification_id": str(group.ids[0]),
                "page_min_id": str(group.ids[-1]),
                "page_max_id": str(group.ids[0]),
                "latest_page_notification_at": entities.iso(group.when),
                "sample_account_ids": [str(u) for u in group.uids[:SAMPLE_ACCOUNTS] if u in people],
                "status_id": str(group.status["id"]) if group.status else None,
                **({"group": group_entity(site, group.group)} if group.group else {}),
            }
            for group in shown
        ],
    }


@endpoint("GET", scope="read")
def notifications(request: ApiRequest) -> ApiResult:
    """A page of notification groups (`limit` of them), newest first, filtered as the
    ungrouped notifications are."""
    uid = caller_uid(request)
    entries = listing.page_by_id(uid, groups=True, **page_params(request, uid))
    grouped_types = type_list(params(request), "grouped_types")
    results = grouped_results(request, uid, entries, grouped_types=grouped_types)
    return results, id_links(request, entries)


def group_of(uid: int, group_key: str) -> list[Entry]:
    """Every notification of the caller's group `group_key`, newest first (404 if none)."""
    if group_key.startswith(UNGROUPED):
        number = group_key.removeprefix(UNGROUPED)
        entry = listing.entry_by_id(uid, int(number)) if number.isdigit() else None
        entries = [entry] if entry is not None else []
    else:
        try:
            entries = listing.group_entries(uid, group_key)
        except ValueError:
            raise ApiError(404, "Record not found") from None
    if not entries:
        raise ApiError(404, "Record not found")
    return entries


@endpoint("GET", scope="read")
def group(request: ApiRequest, group_key: str) -> ApiResult:
    """One group, all its notifications: GroupedNotificationsResults of it alone."""
    uid = caller_uid(request)
    ungrouped = ["none"] if group_key.startswith(UNGROUPED) else None
    results = grouped_results(request, uid, group_of(uid, group_key), grouped_types=ungrouped)
    if not results["notification_groups"]:
        raise ApiError(404, "Record not found")
    return results


@endpoint("GET", scope="read")
def group_accounts(request: ApiRequest, group_key: str) -> ApiResult:
    """The accounts of a group's notifications, newest first."""
    uid = caller_uid(request)
    entries = group_of(uid, group_key)
    people = entities.accounts(entities.site_of(request), [e.actor for e in entries])
    return [people[u] for u in dict.fromkeys(e.actor for e in entries) if u in people]


@endpoint("POST", scope="write")
def dismiss_group(request: ApiRequest, group_key: str) -> ApiResult:
    """Removes every notification of a group: {}."""
    uid = caller_uid(request)
    for entry in group_of(uid, group_key):
        services.dismiss(uid, entry.id)
    return {}


@endpoint("GET", scope="read")
def unread_count(request: ApiRequest) -> ApiResult:
    """How many groups the notifications made since the caller last read them form, up
    to `limit`: {"count": n}."""
    found = params(request)
    limit = limit_param(found, default=UNREAD_DEFAULT, most=UNREAD_MAX)
    unread = listing.unread_entries(caller_uid(request), kinds_param(found))
    return {"count": min(limit, len({group_key(e.kind, e.obj, e.actor) for e in unread}))}
