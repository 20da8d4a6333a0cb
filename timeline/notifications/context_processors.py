from django.utils.functional import SimpleLazyObject

from accounts.auth import current_uid

from .selectors import unread_counts
from .unread import UNREAD_FIELDS, decode_unread


def unread(request) -> dict:
    """`nav_unread`: the viewer's unread notifications and messages, for the pages that
    don't hand the nav their own `unread`: as read with the session check (accounts'
    read_with_session: no round trip of their own), else (a user the session check
    didn't read, e.g. one without a profile) read when the nav shows them."""
    fields = getattr(getattr(request, "user", None), "session_fields", {})
    if all(field in fields for field in UNREAD_FIELDS):
        return {"nav_unread": decode_unread([fields[field] for field in UNREAD_FIELDS])}
    return {"nav_unread": SimpleLazyObject(lambda: unread_counts(current_uid(request)))}
