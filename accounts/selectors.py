"""Reading account state that no profile shows (accounts.services reads profiles)."""

from socialsite.redis import get_redis

from . import keys


def suspended_uids() -> set[int]:
    """The uids whose statuses read as deleted to all but moderators: suspended accounts,
    and closed ones until the worker has purged them."""
    return {int(uid) for uid in get_redis().smembers(keys.SUSPENDED_USERS)}
