"""Events of a user's own that their open clients hear on PRIVATE_CHANNEL, beside the
notifications' and direct messages' (which their own scripts publish): today, that
their filters (muted words) changed, so a client reads them again."""

import json

from django.dispatch import receiver

from accounts.filters import filters_changed
from socialsite.redis import get_redis

from . import keys

FILTERS_CHANGED = "filters_changed"


@receiver(filters_changed)
def _filters_changed(*, uid: int, **kwargs: object) -> None:
    publish_filters_changed(uid)


def publish_filters_changed(uid: int) -> None:
    """Tells `uid`'s open clients their filters changed (the Mastodon streams'
    `filters_changed`): called once the change is stored. 1 round trip, on its own: a
    cluster's pipeline (or transaction in the user's slot) can't PUBLISH."""
    get_redis().publish(
        keys.PRIVATE_CHANNEL, json.dumps({"to": [int(uid)], "type": FILTERS_CHANGED})
    )
