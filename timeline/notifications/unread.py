"""The nav's unread counts (notifications, messages): fields of the viewer's profile
hash, read with whatever a page reads already (feeds.selectors queues them with a
page's statuses), so the nav costs no round trip of its own."""

from typing import Any, TypedDict

from accounts.keys import user_key
from socialsite.redis import Client

from .. import keys

UNREAD_FIELDS = (keys.UNREAD_NOTIFICATIONS, keys.UNREAD_MESSAGES)


def queue_unread(client: Client, uid: int) -> Any:
    """Queues (or runs) the read of `uid`'s unread counts, for decode_unread: its handle,
    or its reply."""
    return client.hmget(user_key(uid), *UNREAD_FIELDS)


class UnreadCounts(TypedDict):
    """The nav's unread counts."""

    notifications: int
    messages: int


def decode_unread(fields: list[str | None]) -> UnreadCounts:
    """The counts from queue_unread's reply."""
    notifications, messages = fields
    return {"notifications": int(notifications or 0), "messages": int(messages or 0)}
