"""The search page: people, statuses or #tags, one kind at a time."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.auth import current_uid
from accounts.services import search_people
from socialsite.ratelimit import RateLimited, account_or_address, enforce, too_many_requests

from ..graph.selectors import following_among
from ..web import USERS_PER_PAGE, page_number, require_page
from . import selectors

KINDS = ("statuses", "people", "tags")
QUERY_MAX_LENGTH = 200
TAGS_PER_PAGE = 30
# A search of no kind in particular (the nav's box) shows the people it finds first, as
# Mastodon's and X's do: searching "Alice" shows her account above the statuses.
ACCOUNTS_FIRST = 3


def kind_of(request: HttpRequest, query: str) -> str:
    """The kind asked for; without one, "@ada" looks for people, "#redis" for tags."""
    kind = request.GET.get("type", "")
    if kind:
        return kind
    return {"@": "people", "#": "tags"}.get(query[:1], "statuses")


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    """`?q=...&type=people|statuses|tags&page=N`; no query shows the search box alone."""
    query = request.GET.get("q", "").strip()
    kind = kind_of(request, query)
    context: dict[str, Any] = {"query": query, "kind": kind, "kinds": KINDS}
    if kind not in KINDS:
        return _page(request, context, "Search for people, statuses or tags.")
    if not query:
        return _page(request, context)
    if len(query) > QUERY_MAX_LENGTH:
        return _page(request, context, f"Searches are at most {QUERY_MAX_LENGTH} characters.")
    number = page_number(request)
    try:
        enforce("searches", account_or_address(request))
    except RateLimited as error:
        return too_many_requests(request, error)
    viewer = current_uid(request)
    found: list
    try:
        if kind == "statuses":
            if number == 1 and not request.GET.get("type"):
                accounts, _ = search_people(query, page=1, count=ACCOUNTS_FIRST)
                context["accounts"] = accounts
                context["followed"] = following_among(viewer, [p["id"] for p in accounts])
            page = selectors.search_statuses(query, number, settings.STATUSES_PER_PAGE, viewer)
            found, has_older = page.statuses, page.has_older
            context["page"] = page
        elif kind == "people":
            found, has_older = search_people(query, page=number, count=USERS_PER_PAGE)
            context["followed"] = following_among(viewer, [p["id"] for p in found])
        else:
            found, has_older = selectors.search_tags(query, number, TAGS_PER_PAGE)
    except ValueError as error:
        return _page(request, context, str(error))
    require_page(number, found, has_older)
    context |= {"found": found, "number": number, "has_older": has_older}
    return _page(request, context)


def _page(request: HttpRequest, context: dict, error: str = "") -> HttpResponse:
    """The search page; 400 with `error` said on it."""
    return render(
        request, "timeline/search.html", {**context, "error": error}, status=400 if error else 200
    )
