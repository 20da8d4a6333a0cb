"""Reading what posting keeps beside the statuses: the global timeline as stored, and
the quotes of a status."""

from socialsite.redis import get_redis

from .. import keys
from ..feeds.selectors import Page, statuses_page
from ..quotes.keys import quotes_key


def global_timeline_ids() -> list[int]:
    """The ids of every status on the global timeline, newest first, as stored (pages
    then leave out what their viewer may not see)."""
    return [int(i) for i in get_redis().zrevrange(keys.GLOBAL_TIMELINE, 0, -1)]


def quotes_page(status_id: int, page: int, count: int, viewer: int | None) -> Page:
    """Quotes: the quotes of `status_id` still counted, newest first, as `viewer` may
    see them."""
    return statuses_page(quotes_key(status_id), page, count, viewer=viewer)
