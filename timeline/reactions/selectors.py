"""Reading reactions: a user's likes page."""

from socialsite.redis import get_redis

from .. import keys
from ..feeds.selectors import Page, statuses_page


def likes_page(uid: int, page: int = 1, count: int = 30) -> Page:
    """The statuses `uid` likes, the latest liked first (for `uid`'s eyes only)."""
    return statuses_page(keys.likes_key(uid), page, count, viewer=uid)


def liked_ids(uid: int) -> list[int]:
    """The ids of every status `uid` likes, the latest liked first: a deleted or hidden
    status's too until its deletion takes it off (likes_page skips it meanwhile)."""
    return [int(i) for i in get_redis().zrevrange(keys.likes_key(uid), 0, -1)]


def liker_uids(status_id: int) -> list[int]:
    """The uids of everyone who likes the status, the latest first."""
    return [int(uid) for uid in get_redis().zrevrange(keys.likers_key(status_id), 0, -1)]


def reposter_uids(status_id: int) -> list[int]:
    """The uids of everyone whose repost of the status stands, the latest first."""
    return [int(uid) for uid in get_redis().zrevrange(keys.reposts_key(status_id), 0, -1)]
