"""The Explore page: trending statuses, links and #tags."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from ..web import render_statuses
from . import selectors

LINKS_SHOWN = 10


@require_GET
def explore(request: HttpRequest) -> HttpResponse:
    """What is trending: statuses (paged), and on the first page links and #tags."""
    links, _more = selectors.trending_links(0, LINKS_SHOWN)
    context = {"links": links, "tags": selectors.trending_tags()}
    return render_statuses(request, selectors.explore_page, "timeline/explore.html", context)
