"""Reading the site's pages, and pages of statuses, in tests."""

import html
import re

from django.utils.html import strip_tags


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
