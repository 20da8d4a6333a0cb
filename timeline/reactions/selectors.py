"""Reading reactions: a user's likes page."""

from .. import keys
from ..feeds.selectors import Page, statuses_page


def likes_page(uid: int, page: int = 1, count: int = 30) -> Page:
    """The statuses `uid` likes, the latest liked first (for `uid`'s eyes only)."""
    return statuses_page(keys.likes_key(uid), page, count, viewer=uid)
