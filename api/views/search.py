"""Search (v2) and account search through the search page's selectors: people by login
or name, statuses by their words (as the caller may see them), #tags by prefix. The
selectors' numbered pages serve Mastodon's `offset` and `limit`."""

from collections.abc import Callable

from accounts.services import search_people
from timeline.search import selectors

from .. import entities
from ..http import ApiError, ApiRequest, endpoint, limit_param, limit_rate, params, viewer
from .people import visible_accounts

TYPES = ("accounts", "statuses", "hashtags")
# The furthest offset asked for: the selectors page through their newest matches only.
OFFSET_MAX = 10_000


def offset_param(found: dict) -> int:
    value = str(found.get("offset") or 0)
    if not (value.isascii() and value.isdigit()) or int(value) > OFFSET_MAX:
        raise ApiError(422, f"offset must be a number from 0 to {OFFSET_MAX}.")
    return int(value)


def query_param(found: dict) -> str:
    query = found.get("q")
    if not isinstance(query, str) or not query.strip():
        raise ApiError(422, "q is required: what to search for.")
    return query.strip()


def at_offset(read_page: Callable, offset: int, limit: int) -> list:
    """`limit` results from `offset` of `read_page(number, count)` (results, whether
    more follow), which numbers its pages from 1: one page, or two across an edge."""
    number, skip = divmod(offset, limit)
    found, more = read_page(number + 1, limit)
    if skip and more:
        found = found + read_page(number + 2, limit)[0]
    return found[skip : skip + limit]


def found_accounts(request: ApiRequest, query: str, offset: int, limit: int) -> list[dict]:
    people = at_offset(
        lambda number, count: search_people(query, page=number, count=count), offset, limit
    )
    return visible_accounts(request, people)


def found_statuses(request: ApiRequest, query: str, offset: int, limit: int) -> list[dict]:
    def read(number: int, count: int) -> tuple[list, bool]:
        page = selectors.search_statuses(query, number, count, viewer(request))
        return page.statuses, page.has_older

    return entities.statuses(entities.site_of(request), at_offset(read, offset, limit))


def found_hashtags(request: ApiRequest, query: str, offset: int, limit: int) -> list[dict]:
    tags = at_offset(
        lambda number, count: selectors.search_tags(query, number, count), offset, limit
    )
    return [entities.tag(entities.site_of(request), tag.name) for tag in tags]


SEARCHES = {"accounts": found_accounts, "statuses": found_statuses, "hashtags": found_hashtags}


@endpoint("GET", public=True, user=False)
def search(request: ApiRequest) -> dict:
    """One type (`type`; a query it refuses is 422) or all three (a type that refuses
    the query finds nothing, as a word can't be a #tag and "#" can't be a word)."""
    found = params(request)
    query, offset, limit = query_param(found), offset_param(found), limit_param(found)
    kind = found.get("type") or ""
    if kind and kind not in TYPES:
        raise ApiError(422, f"type must be one of {', '.join(TYPES)}.")
    limit_rate(request, "searches")
    results: dict[str, list] = {}
    for name in TYPES:
        if kind and name != kind:
            results[name] = []
            continue
        try:
            results[name] = SEARCHES[name](request, query, offset, limit)
        except ValueError:
            if kind:
                raise
            results[name] = []
    return results


@endpoint("GET", scope="read")
def accounts(request: ApiRequest) -> list:
    found = params(request)
    query, offset, limit = query_param(found), offset_param(found), limit_param(found, 40, 80)
    limit_rate(request, "searches")
    return found_accounts(request, query, offset, limit)
