"""Your notifications and direct-message conversations, as Mastodon shows them: the
site's pages of them behind opaque page cursors ("max_id=p2")."""

from django.conf import settings

from timeline.direct.selectors import Conversation, inbox_page
from timeline.notifications.selectors import Notification, notifications_page
from timeline.statuses.records import Status

from .. import entities
from ..http import ApiRequest, ApiResult, caller_uid, endpoint, limit_param, params
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
}


@endpoint("GET", scope="read")
def notifications(request: ApiRequest) -> ApiResult:
    """One Mastodon notification for each person in each of the page's groups."""
    found = params(request)
    number = page_cursor(found)
    page = notifications_page(
        caller_uid(request), number, limit_param(found, default=settings.NOTIFICATIONS_PER_PAGE)
    )
    site = entities.site_of(request)
    people = entities.accounts(site, [uid for n in page.notifications for uid in n.uids])
    statuses = entities.statuses(
        entities.site_of(request), [n.status for n in page.notifications if n.status]
    )
    by_id = {int(status["id"]): status for status in statuses}
    shown = [
        {
            "id": f"{n.kind}-{about(n)}-{uid}",
            "type": TYPES[n.kind],
            "created_at": entities.iso(n.when),
            "account": people[uid],
            "status": by_id.get(n.status["id"]) if n.status else None,
            **({"group": group_entity(site, n.group)} if n.group else {}),
        }
        for n in page.notifications
        for uid in n.uids
        if uid in people and (n.status is None or n.status["id"] in by_id)
    ]
    return shown, next_link(request, number) if page.has_older else {}


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
