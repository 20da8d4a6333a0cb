"""Pages of accounts (followers, following, a list's members): the site's pages of
people, numbered, behind Mastodon's opaque cursors ("max_id=p2" is page 2)."""

import re
from collections.abc import Callable
from urllib.parse import urlencode

from accounts.records import UserProfile
from timeline.feeds.selectors import LAST_PAGE

from .. import entities
from ..http import ApiError, ApiRequest, limit_param, params

PAGE_CURSOR = re.compile(r"p([1-9][0-9]{0,8})")


def page_cursor(found: dict) -> int:
    """The page a `max_id` cursor of these pages names (1 without one)."""
    cursor = str(found.get("max_id") or "p1")
    match = PAGE_CURSOR.fullmatch(cursor)
    if match is None or int(match[1]) > LAST_PAGE:
        raise ApiError(422, "max_id must be a cursor from this endpoint's Link header.")
    return int(match[1])


def next_link(request: ApiRequest, number: int) -> dict:
    query = {k: v for k, v in request.GET.items() if k not in {"max_id", "min_id", "since_id"}}
    url = request.build_absolute_uri(request.path)
    return {"Link": f'<{url}?{urlencode({**query, "max_id": f"p{number + 1}"})}>; rel="next"'}


def people_page(request: ApiRequest, read_page: Callable) -> tuple[list, dict]:
    """Accounts of `read_page(number, count)` (profiles, and whether more follow) for
    the request's cursor and limit, with the next page's Link."""
    found = params(request)
    number = page_cursor(found)
    people, more = read_page(number, limit_param(found, default=40, most=80))
    return visible_accounts(request, people), next_link(request, number) if more else {}


def visible_accounts(request: ApiRequest, people: list[UserProfile]) -> list[dict]:
    """Account entities of `people`, less the suspended."""
    site = entities.site_of(request)
    return [entities.account(site, person) for person in people if not person["suspended"]]
