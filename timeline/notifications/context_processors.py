from django.utils.functional import SimpleLazyObject

from accounts.auth import current_uid

from .selectors import unread_counts


def unread(request) -> dict:
    """`nav_unread`: the viewer's unread notifications and messages, read (1 round trip)
    only by a page that doesn't hand the nav its own `unread`, read with its data."""
    return {"nav_unread": SimpleLazyObject(lambda: unread_counts(current_uid(request)))}
