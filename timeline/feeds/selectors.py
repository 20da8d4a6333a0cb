"""Reading timelines, the feeds room's public face: a page of any timeline's statuses
(home, profile, global, and the mentions, tag, likes and list timelines built on it:
feeds.pages), a home page with its sidebar (feeds.home_page), one status as a
timeline shows it, pages by cursor (feeds.cursors) and pages of people.

The nav's unread counts come with the session check (accounts' read_with_session)."""

from .. import keys
from ..statuses.records import Status
from .cursors import CURSOR_TIMELINES, SHOWN_WHERE, Cursor, cursor_page
from .home_page import (
    HomeFirstReads,
    HomeIds,
    HomePage,
    home_page,
    home_statuses,
    home_timeline_page,
    queue_home,
)
from .pages import (
    LAST_PAGE,
    Page,
    StatusesRead,
    global_timeline_page,
    kept_statuses,
    original,
    page_ids,
    page_span,
    posted_page,
    queue_statuses,
    read_page,
    shown_status,
    statuses_page,
    users_page,
    with_originals,
)

__all__ = [
    "CURSOR_TIMELINES",
    "LAST_PAGE",
    "SHOWN_WHERE",
    "TIMELINES",
    "Cursor",
    "HomeFirstReads",
    "HomeIds",
    "HomePage",
    "Page",
    "StatusesRead",
    "cursor_page",
    "get_status_messages",
    "global_timeline_page",
    "home_page",
    "home_statuses",
    "home_timeline_page",
    "kept_statuses",
    "original",
    "page_ids",
    "page_span",
    "posted_page",
    "queue_home",
    "queue_statuses",
    "read_page",
    "shown_status",
    "statuses_page",
    "timeline_page",
    "users_page",
    "with_originals",
]

# A named timeline's key from its owner.
TIMELINES = {"home": keys.home_timeline_key, "profile": keys.profile_timeline_key}


def timeline_page(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30, *, marked: bool = True
) -> Page:
    """A page of `uid`'s home or profile timeline as they see it (unless `marked`, without
    their likes and reposts marks: see pages.posted_page)."""
    if timeline not in TIMELINES:
        raise ValueError(f"Unknown timeline {timeline!r}")
    if timeline == "home":
        return home_timeline_page(uid, page, count, marked=marked)
    return posted_page(TIMELINES[timeline](uid), page, count, viewer=uid, marked=marked)


def get_status_messages(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30
) -> list[Status]:
    """A page of `uid`'s home or profile timeline, newest first, without deleted statuses
    or those the safety rule hides from them (1 round trip when the statuses are kept)."""
    return timeline_page(uid, timeline, page, count, marked=False).statuses
