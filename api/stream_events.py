"""What the Mastodon streams send, built from the site's events for the stream's
reader: a status as the Status entity they may see, a notification as the Notification
entity the notifications endpoint shows, a direct message's conversation as the
Conversation entity. Each is None when the reader may not (or can no longer) see it:
the one visibility rule decides, through the selectors these call."""

import time

from accounts.services import uid_for_login
from timeline.direct.selectors import conversation_page
from timeline.direct.services import NoSuchConversation
from timeline.feeds.selectors import shown_status
from timeline.groups.selectors import get_group
from timeline.notifications.services import GROUP_KINDS, PERSON_KINDS

from . import entities
from .views.notifications import TYPES, group_entity, last_status


def status_entity(site: str, status_id: int, viewer: int) -> dict | None:
    """A status as `viewer` sees it, as a Status entity; None if it is gone or hidden."""
    found = shown_status(status_id, viewer=viewer)
    return entities.statuses(site, [found])[0] if found else None


def notification_entity(site: str, viewer: int, notification: dict) -> dict | None:
    """A new notification of `viewer`'s (as its event names it: kind, actor's login,
    object) as the notifications endpoint shows it; None for one whose actor or status is
    gone or hidden from them, or of a kind the API doesn't name."""
    kind, object_id = notification.get("kind"), int(notification.get("object") or 0)
    actor = uid_for_login(str(notification.get("actor", "")))
    if kind not in TYPES or actor is None:
        return None
    account = entities.accounts(site, [actor]).get(actor)
    if account is None:
        return None
    shown: dict = {
        "id": f"{kind}-{object_id}-{actor}",
        "type": TYPES[kind],
        "created_at": entities.iso(time.time()),
        "account": account,
        "status": None,
    }
    if kind in GROUP_KINDS:
        group = get_group(object_id)
        if group is None:
            return None
        shown["group"] = group_entity(
            site, {"id": group.id, "handle": group.handle, "name": group.name}
        )
    elif kind not in PERSON_KINDS:
        shown["status"] = status_entity(site, object_id, viewer)
        if shown["status"] is None:
            return None
    return shown


def conversation_entity(site: str, viewer: int, conversation_id: int, unread: int) -> dict | None:
    """`viewer`'s direct conversation as the conversations endpoint shows it (its last
    message the one just sent); None if they are no longer in it."""
    try:
        found = conversation_page(viewer, conversation_id, 1, 1).conversation
    except NoSuchConversation:
        return None
    people = entities.accounts(site, found.uids)
    return {
        "id": str(found.id),
        "unread": unread > 0,
        "accounts": [people[other] for other in found.uids if other != viewer and other in people],
        "last_status": last_status(site, found, people),
    }
