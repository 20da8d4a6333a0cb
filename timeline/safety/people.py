"""Pages of people a user's safety settings name: follow requests, blocks and mutes."""

from accounts.records import UserProfile

from .. import keys
from ..feeds.selectors import users_page


def follow_requests_page(
    uid: int, page: int = 1, count: int = 50
) -> tuple[list[UserProfile], bool]:
    """Profiles of those asking to follow `uid`, newest request first, and whether more follow."""
    return users_page(keys.follow_requests_key(uid), page, count)


def blocks_page(uid: int, page: int = 1, count: int = 50) -> tuple[list[UserProfile], bool]:
    """Profiles of the users `uid` blocks, newest first, and whether more follow."""
    return users_page(keys.blocks_key(uid), page, count)


def mutes_page(uid: int, page: int = 1, count: int = 50) -> tuple[list[UserProfile], bool]:
    """Profiles of the users `uid` mutes (an ended mute stays listed until undone or
    renewed, marked by the page), newest mute end first, and whether more follow."""
    return users_page(keys.mutes_key(uid), page, count)
