"""Reading what posting keeps beside the statuses: the global timeline as stored."""

from socialsite.redis import get_redis

from .. import keys


def global_timeline_ids() -> list[int]:
    """The ids of every status on the global timeline, newest first, as stored (pages
    then leave out what their viewer may not see)."""
    return [int(i) for i in get_redis().zrevrange(keys.GLOBAL_TIMELINE, 0, -1)]
