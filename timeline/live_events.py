"""Events of a user's own that their open clients hear on PRIVATE_CHANNEL, beside the
notifications' and direct messages' (which their own scripts publish): today, that
their filters (muted words) changed, so a client reads them again."""

import json

from . import keys

FILTERS_CHANGED = "filters_changed"


def queue_filters_changed(pipe, uid: int) -> None:
    """Queues on `pipe` the event telling `uid`'s open clients their filters changed
    (the Mastodon streams' `filters_changed`). PUBLISH names no key: any slot's pipeline."""
    pipe.publish(keys.PRIVATE_CHANNEL, json.dumps({"to": [int(uid)], "type": FILTERS_CHANGED}))
