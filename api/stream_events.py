"""What the Mastodon streams send, built from the site's events for the stream's
reader: a status as the Status entity they may see, a notification as the Notification
entity the notifications endpoint shows, a direct message's conversation as the
Conversation entity. Each is None when the reader may not (or can no longer) see it:
the one visibility rule decides, through the selectors these call."""

from timeline.direct.selectors import conversation_page
from timeline.direct.services import NoSuchConversation
from timeline.feeds.selectors import shown_status
from timeline.notifications.selectors import entry_of_event

from . import entities
from .views.notifications import last_status, notification_entities


def status_entity(site: str, status_id: int, viewer: int) -> dict | None:
    """A status as `viewer` sees it, as a Status entity; None if it is gone or hidden."""
    found = shown_status(status_id, viewer=viewer)
    return entities.statuses(site, [found])[0] if found else None


def notification_entity(site: str, viewer: int, notification: dict) -> dict | None:
    """A new notification of `viewer`'s (as notify.lua publishes it) as
    `GET /api/v1/notifications/:id` shows it, same id and all; None for one no longer
    shown (its actor or status gone or hidden from them) or an event that isn't one."""
    try:
        entry = entry_of_event(notification)
    except (KeyError, TypeError, ValueError):
        return None
    shown = notification_entities(site, viewer, [entry])
    return shown[0] if shown else None


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
