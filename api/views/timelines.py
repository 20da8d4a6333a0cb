"""Timelines: home, public, a tag's and a list's, paged by status ids."""

from urllib.parse import urlencode

from django.conf import settings

from timeline.conversations.selectors import check_tag
from timeline.lists.selectors import get_list
from timeline.ranking.selectors import top_statuses

from .. import entities
from ..filtering import with_filtered
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    endpoint,
    id_param,
    limit_param,
    params,
)
from . import groups
from .status_pages import statuses_page


@endpoint("GET", scope="read")
def home(request: ApiRequest) -> ApiResult:
    found = params(request)
    order = found.get("order") or "latest"
    if order == "top":
        return top(request, found)
    if order != "latest":
        raise ApiError(422, "order must be latest or top.")
    return statuses_page(request, "home", caller_uid(request))


def top(request: ApiRequest, found: dict) -> ApiResult:
    """The home ordered by importance (timeline.ranking): `limit` statuses from rank
    `offset`; the next page's link carries the offset on (ids don't page a ranking)."""
    offset = found.get("offset") or "0"
    if not str(offset).isdigit() or int(offset) > settings.TOP_CANDIDATES:
        raise ApiError(422, f"offset must be a number from 0 to {settings.TOP_CANDIDATES}.")
    limit = limit_param(found)
    statuses, more = top_statuses(caller_uid(request), offset=int(offset), count=limit)
    shown = entities.statuses(entities.site_of(request), statuses)
    with_filtered(caller_uid(request), shown, statuses)  # filters (apiprefs)
    if not more:
        return shown, {}
    query = urlencode({**request.GET.dict(), "offset": int(offset) + limit})
    return shown, {"Link": f'<{request.build_absolute_uri(request.path)}?{query}>; rel="next"'}


@endpoint("GET", public=True, user=False)
def public(request: ApiRequest) -> ApiResult:
    return statuses_page(request, "global", None)


@endpoint("GET", public=True, user=False)
def tag(request: ApiRequest, tag: str) -> ApiResult:
    return statuses_page(request, "tag", check_tag(tag))


@endpoint("GET", scope="read")
def user_list(request: ApiRequest, list_id: str) -> ApiResult:
    # A group's timeline reads as a list of the caller's ("g17": views.groups).
    group_id = groups.group_of_list(list_id)
    if group_id is not None:
        return groups.group_timeline(request, groups.readable(request, str(group_id)).id)
    the_list = get_list(id_param(list_id), caller_uid(request))
    if the_list is None:
        raise ApiError(404, "Record not found")
    return statuses_page(request, "list", the_list["id"])
