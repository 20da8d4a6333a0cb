"""Your notifications, as Mastodon shows them: each its own, by id (its time in its
set, distinct), filtered by type and actor, one at a time, dismissed or cleared; and
your direct-message conversations, the site's pages of them behind opaque page cursors
("max_id=p2")."""

from urllib.parse import urlencode

from timeline.direct.selectors import Conversation, inbox_page
from timeline.notifications import listing, services
from timeline.notifications.selectors import (
    Entry,
    Found,
    Notification,
    group_key,
    read_entries,
)
from timeline.notifications.services import GROUP_KINDS, PERSON_KINDS
from timeline.statuses.records import Status

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    endpoint,
    id_param,
    limit_param,
    params,
)
from .people import next_link, page_cursor

# The site's kinds of notification as Mastodon names them.
TYPES = {
    "follow": "follow",
    "follow_request": "follow_request",
    "like": "favourite",
    "repost": "reblog",
    "reply": "mention",
    "mention": "mention",
    # Mastodon has no groups: these two are the site's own types, and say the group.
    "group_request": "group_request",
    "group_approval": "group_approval",
    # Polls: a poll you voted in or made has ended.
    "poll": "poll",
    # Quotes: Mastodon 4.5's type.
    "quote": "quote",
    # Edits: a status the recipient interacted with was edited.
    "update": "update",
    # Someone you follow with notify on posted.
    "status": "status",
}
# Mastodon's types -> the site's kinds. A type the site never makes (admin.sign_up,
# severed_relationships, ...) names no kind: asked for alone it finds nothing, as on a
# Mastodon server that has none, and excluded it changes nothing.
KINDS_OF_TYPE: dict[str, set[str]] = {}
for _kind, _type in TYPES.items():
    KINDS_OF_TYPE.setdefault(_type, set()).add(_kind)
# Mastodon's largest page of notifications (and of groups), and its default.
NOTIFICATIONS_MAX, NOTIFICATIONS_DEFAULT = 80, 40


def type_list(found: dict, name: str) -> list[str] | None:
    """The types a `types[]`-like parameter lists (None if absent)."""
    value = found.get(f"{name}[]", found.get(name))
    if value in (None, ""):
        return None
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ApiError(422, f"{name} must be a list of notification types.")
    return values


def kinds_param(found: dict) -> set[str] | None:
    """The site's kinds `types[]` and `exclude_types[]` leave (None: every kind)."""
    types, excluded = type_list(found, "types"), type_list(found, "exclude_types")
    if types is None and excluded is None:
        return None
    kinds = set(TYPES) if types is None else {k for t in types for k in KINDS_OF_TYPE.get(t, ())}
    return kinds - {k for t in excluded or () for k in KINDS_OF_TYPE.get(t, ())}


def notification_id(value: object, name: str) -> int | None:
    """A notification id given as `name`, None if not given; 422 if it isn't one."""
    if value in (None, ""):
        return None
    text = str(value)
    if not text.isdigit() or not 0 < int(text) < 1 << 63:
        raise ApiError(422, f"{name} must be a notification id.")
    return int(text)


def page_params(request: ApiRequest, uid: int) -> dict:
    """page_by_id's arguments from the request's parameters."""
    found = params(request)
    actor = found.get("account_id")
    return {
        "limit": limit_param(found, default=NOTIFICATIONS_DEFAULT, most=NOTIFICATIONS_MAX),
        "max_id": notification_id(found.get("max_id"), "max_id"),
        "since_id": notification_id(found.get("since_id"), "since_id"),
        "min_id": notification_id(found.get("min_id"), "min_id"),
        "kinds": kinds_param(found),
        "actor": None if actor in (None, "") else id_param(actor),
    }


def id_links(request: ApiRequest, entries: list[Entry]) -> dict:
    """Mastodon's Link header for a page of notifications read by id: older ones after
    its last (next), newer ones before its first (prev); shown or not, so that a page
    whose notifications are all gone still leads on."""
    if not entries:
        return {}
    base = request.build_absolute_uri(request.path)
    query = [
        (name, value)
        for name, values in request.GET.lists()
        if name not in {"max_id", "min_id", "since_id"}
        for value in values
    ]
    older = urlencode([*query, ("max_id", entries[-1].id)])
    newer = urlencode([*query, ("min_id", entries[0].id)])
    return {"Link": f'<{base}?{older}>; rel="next", <{base}?{newer}>; rel="prev"'}


def shown_entries(request: ApiRequest, uid: int, entries: list[Entry]) -> list[dict]:
    """Notification entities of `entries` (those still shown), newest first."""
    return notification_entities(entities.site_of(request), uid, entries)


def notification_entities(site: str, uid: int, entries: list[Entry]) -> list[dict]:
    """Mastodon's Notification entities of `uid`'s `entries` that are still shown (a
    stream's too: notifications.selectors.entry_of_event), newest first: 2 round trips."""
    found = read_entries(uid, entries)
    shown = [entry for entry in entries if found.shows(entry)]
    statuses, people = entities.statuses_and_accounts(
        site, list(found.statuses.values()), [entry.actor for entry in shown]
    )
    by_id = {int(status["id"]): status for status in statuses}
    return [
        notification_entity(site, entry, found, people, by_id)
        for entry in shown
        if entry.actor in people and (not about_status(entry) or entry.obj in by_id)
    ]


def about_status(entry: Entry) -> bool:
    """Whether a notification is about a status (not a person or a group)."""
    return entry.kind not in PERSON_KINDS and entry.kind not in GROUP_KINDS


def notification_entity(
    site: str, entry: Entry, found: Found, people: dict[int, dict], statuses: dict[int, dict]
) -> dict:
    group = found.groups.get(entry.obj) if entry.kind in GROUP_KINDS else None
    return {
        "id": str(entry.id),
        "type": TYPES[entry.kind],
        "created_at": entities.iso(entry.when),
        "group_key": group_key(entry.kind, entry.obj, entry.actor),
        "account": people[entry.actor],
        "status": statuses.get(entry.obj) if about_status(entry) else None,
        **({"group": group_entity(site, group)} if group else {}),
    }


@endpoint("GET", scope="read")
def notifications(request: ApiRequest) -> ApiResult:
    """A page of notifications, each its own, newest first; of `types[]` but not
    `exclude_types[]`, by `account_id`, between ids as statuses' pages are."""
    uid = caller_uid(request)
    entries = listing.page_by_id(uid, **page_params(request, uid))
    return shown_entries(request, uid, entries), id_links(request, entries)


def one_entry(uid: int, notification_id: str) -> Entry:
    entry = listing.entry_by_id(uid, id_param(notification_id))
    if entry is None:
        raise ApiError(404, "Record not found")
    return entry


@endpoint("GET", scope="read")
def notification(request: ApiRequest, notification_id: str) -> ApiResult:
    uid = caller_uid(request)
    shown = shown_entries(request, uid, [one_entry(uid, notification_id)])
    if not shown:
        raise ApiError(404, "Record not found")
    return shown[0]


@endpoint("POST", scope="write")
def dismiss(request: ApiRequest, notification_id: str) -> ApiResult:
    """Removes one notification: {} (404 if there is none)."""
    uid = caller_uid(request)
    if not services.dismiss(uid, one_entry(uid, notification_id).id):
        raise ApiError(404, "Record not found")
    return {}


@endpoint("POST", scope="write")
def clear(request: ApiRequest) -> ApiResult:
    """Removes all of the caller's notifications: {}."""
    services.clear(caller_uid(request))
    return {}


# Mastodon's default and largest count of unread notifications told.
UNREAD_DEFAULT, UNREAD_MAX = 100, 1000


@endpoint("GET", scope="read")
def unread_count(request: ApiRequest) -> ApiResult:
    """How many notifications came since the caller last read them (opening the
    notifications page), up to `limit`: {"count": n}."""
    found = params(request)
    limit = limit_param(found, default=UNREAD_DEFAULT, most=UNREAD_MAX)
    unread = listing.unread_entries(caller_uid(request), kinds_param(found))
    return {"count": min(limit, len(unread))}


def about(notification: Notification) -> int:
    """The id of what a notification is about: its group or status (0 for a follow)."""
    if notification.group:
        return int(notification.group["id"])
    return int(notification.status["id"]) if notification.status else 0


def group_entity(site: str, group: dict) -> dict:
    """The group a group's notification names, as the groups endpoints show its id."""
    return {
        "id": str(group["id"]),
        "handle": group["handle"],
        "name": group["name"],
        "url": f"{site}/g/{group['handle']}/",
    }


@endpoint("GET", scope="read")
def conversations(request: ApiRequest) -> ApiResult:
    found = params(request)
    number = page_cursor(found)
    uid = caller_uid(request)
    page = inbox_page(uid, number, limit_param(found))
    site = entities.site_of(request)
    people = entities.accounts(site, [u for c in page.conversations for u in c.uids])
    shown = [
        {
            "id": str(conversation.id),
            "unread": conversation.unread > 0,
            "accounts": [
                people[other] for other in conversation.uids if other != uid and other in people
            ],
            "last_status": last_status(site, conversation, people),
        }
        for conversation in page.conversations
    ]
    return shown, next_link(request, number) if page.has_older else {}


def last_status(site: str, conversation: Conversation, people: dict) -> dict | None:
    """A conversation's last message as a direct Status (its id the conversation's: a
    message isn't a status, and has no id of its own here)."""
    last = conversation.last
    if not last or last["uid"] not in people:
        return None
    message: Status = {
        "id": conversation.id,
        "uid": last["uid"],
        "login": last["login"],
        "message": last["text"],
        "posted": last["sent"],
    }
    entity = entities.status(site, message, people)
    # Its author is among `people` (checked above), so it has an entity.
    assert entity is not None
    return {**entity, "visibility": "direct"}
