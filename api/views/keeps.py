"""Bookmarks, pins and followed tags (timeline.keeps), as Mastodon's API has them."""

import contextlib
from collections.abc import Callable
from urllib.parse import urlencode

from timeline.conversations.selectors import check_tag
from timeline.keeps import selectors, services
from timeline.statuses.selectors import AlreadyDone

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    endpoint,
    id_param,
    limit_param,
    limit_rate,
    params,
    viewer,
)
from .status_pages import statuses_page
from .statuses import shown


def keep(action: Callable[[int, int], object]) -> Callable:
    """A bookmark or pin endpoint: idempotent, as Mastodon's bookmarks are (doing what is
    done already answers as if it had just been done); answers with the status."""

    @endpoint("POST", scope="write")
    def view(request: ApiRequest, status_id: str) -> dict:
        target = id_param(status_id)
        limit_rate(request, "keeps")
        with contextlib.suppress(AlreadyDone):
            action(caller_uid(request), target)
        return shown(request, target)

    return view


bookmark = keep(services.bookmark)
unbookmark = keep(services.unbookmark)
pin = keep(services.pin)
unpin = keep(services.unpin)


@endpoint("GET", scope="read")
def bookmarks(request: ApiRequest) -> ApiResult:
    return statuses_page(request, "bookmarks", caller_uid(request))


# Followed tags page by when each was followed (microseconds), which their Link gives.
FOLLOWED_TAGS_LIMIT = (100, 200)


@endpoint("GET", scope="read")
def followed_tags(request: ApiRequest) -> ApiResult:
    found = params(request)
    count = limit_param(found, *FOLLOWED_TAGS_LIMIT)
    before = found.get("max_id")
    followed = selectors.followed_tags(
        caller_uid(request),
        count + 1,
        before=None if before in (None, "") else id_param(before, "max_id"),
    )
    site = entities.site_of(request)
    shown_tags = [entities.tag(site, tag.name, following=True) for tag in followed[:count]]
    if len(followed) <= count:
        return shown_tags
    base = request.build_absolute_uri(request.path)
    query = {**{k: v for k, v in request.GET.items() if k != "max_id"}}
    after = followed[count - 1].cursor
    next_page = f'<{base}?{urlencode({**query, "max_id": after})}>; rel="next"'
    return shown_tags, {"Link": next_page}


@endpoint("GET", public=True, user=False)
def tag(request: ApiRequest, name: str) -> dict:
    tag_name = _tag(name)
    following = selectors.follows_tag(viewer(request), tag_name)
    return entities.tag(entities.site_of(request), tag_name, following=following)


def tag_follow(action: Callable[[int, str], str]) -> Callable:
    @endpoint("POST", scope="write")
    def view(request: ApiRequest, name: str) -> dict:
        tag_name = _tag(name)
        limit_rate(request, "keeps")
        with contextlib.suppress(AlreadyDone):
            action(caller_uid(request), tag_name)
        following = selectors.follows_tag(caller_uid(request), tag_name)
        return entities.tag(entities.site_of(request), tag_name, following=following)

    return view


follow_tag = tag_follow(services.follow_tag)
unfollow_tag = tag_follow(services.unfollow_tag)


def _tag(name: str) -> str:
    """The tag as indexed; 404 for what can't be a tag, as Mastodon answers."""
    try:
        return check_tag(name)
    except ValueError:
        raise ApiError(404, "Record not found") from None
