"""Reading the site's pages, and pages of statuses, in tests."""

import html
import re

from django.utils.html import strip_tags

from socialsite.redis import get_redis
from timeline.feeds import home_list


def page_text(response) -> str:
    return response.content.decode()


def shows(response, text: str) -> bool:
    """Whether a reader sees `text` on the page (tags gone, whitespace collapsed)."""
    return text in " ".join(html.unescape(strip_tags(page_text(response))).split())


def status_ids(response) -> list[int]:
    return [int(i) for i in re.findall(r'data-status-id="(\d+)"', page_text(response))]


def ids(statuses: list[dict]) -> list[int]:
    """The ids of a page of statuses, in order."""
    return [s["id"] for s in statuses]


def home_entries(uid: int) -> list[int]:
    """Every id stored in `uid`'s home, as stored (repeats and deleted statuses' ids
    included), read by the home layout's own read (feeds.home_list)."""
    return [int(i) for i in home_list.queue_window(get_redis(), uid, -1)]
