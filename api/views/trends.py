"""Trends: the statuses and links trending on Explore (timeline.explore), in Mastodon's
shapes, paged by `offset` and `limit`: Status entities, and Trends::Link (a PreviewCard
plus its history) with the link itself as title until links get cards."""

from urllib.parse import urlencode, urlsplit

from timeline.discovery.trending import TrendingLink
from timeline.explore import selectors

from .. import entities
from ..http import ApiRequest, ApiResult, endpoint, limit_param, params, viewer
from .search import offset_param


def next_link(request: ApiRequest, offset: int, limit: int, *, more: bool) -> dict:
    """Mastodon's Link header for offset paging: the next page after this one, if any."""
    if not more:
        return {}
    query = {**request.GET.dict(), "offset": offset + limit, "limit": limit}
    return {"Link": f'<{request.build_absolute_uri(request.path)}?{urlencode(query)}>; rel="next"'}


def link_card(link: TrendingLink) -> dict:
    """A trending link as Mastodon's Trends::Link: a PreviewCard (its title the link
    until links have cards) and `history`, a day a row, newest first."""
    return {
        "url": link.url,
        "title": link.url,
        "description": "",
        "type": "link",
        "author_name": "",
        "author_url": "",
        "provider_name": urlsplit(link.url).hostname or "",
        "provider_url": "",
        "html": "",
        "width": 0,
        "height": 0,
        "image": None,
        "image_description": "",
        "embed_url": "",
        "blurhash": None,
        "published_at": None,
        "authors": [],
        "history": [
            {"day": str(day.day), "accounts": str(day.accounts), "uses": str(day.uses)}
            for day in link.history
        ],
    }


@endpoint("GET", public=True, user=False)
def statuses(request: ApiRequest) -> ApiResult:
    found = params(request)
    offset, limit = offset_param(found), limit_param(found, 20, 40)
    read = selectors.trending_statuses(viewer(request), offset, limit)
    shown = entities.statuses(entities.site_of(request), read.statuses)
    return shown, next_link(request, offset, limit, more=read.more)


@endpoint("GET", public=True, user=False)
def links(request: ApiRequest) -> ApiResult:
    found = params(request)
    offset, limit = offset_param(found), limit_param(found, 10, 20)
    read, more = selectors.trending_links(offset, limit)
    return [link_card(link) for link in read], next_link(request, offset, limit, more=more)
