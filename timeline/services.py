"""The timeline's part of the service contract (docs/architecture.md): the functions other code
and outside checks call by these names. Each lives in the room of its domain; this
module only names them, and nothing inside timeline imports it."""

from .feeds.selectors import get_status_messages
from .graph.services import follow_user, unfollow_user
from .posting.services import delete_status, post_status
from .statuses.services import create_status

__all__ = [
    "create_status",
    "delete_status",
    "follow_user",
    "get_status_messages",
    "post_status",
    "unfollow_user",
]
