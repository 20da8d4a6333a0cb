"""Timelines: home, public, a tag's and a list's, paged by status ids."""

from timeline.conversations.selectors import check_tag
from timeline.feeds.selectors import cursor_page
from timeline.lists.selectors import get_list

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    cursor_params,
    endpoint,
    id_param,
    limit_param,
    link_header,
    params,
    viewer,
)
from . import groups


def page(request: ApiRequest, timeline: str, owner: int | str | None) -> tuple[list, dict]:
    found = params(request)
    read = cursor_page(
        timeline, owner, cursor_params(found), limit_param(found), viewer=viewer(request)
    )
    shown = entities.statuses(entities.site_of(request), read.statuses)
    return shown, link_header(request, shown, more=read.has_older)


@endpoint("GET", scope="read")
def home(request: ApiRequest) -> ApiResult:
    return page(request, "home", caller_uid(request))


@endpoint("GET", public=True, user=False)
def public(request: ApiRequest) -> ApiResult:
    return page(request, "global", None)


@endpoint("GET", public=True, user=False)
def tag(request: ApiRequest, tag: str) -> ApiResult:
    return page(request, "tag", check_tag(tag))


@endpoint("GET", scope="read")
def user_list(request: ApiRequest, list_id: str) -> ApiResult:
    # A group's timeline reads as a list of the caller's ("g17": views.groups).
    group_id = groups.group_of_list(list_id)
    if group_id is not None:
        return groups.group_timeline(request, groups.readable(request, str(group_id)).id)
    the_list = get_list(id_param(list_id), caller_uid(request))
    if the_list is None:
        raise ApiError(404, "Record not found")
    return page(request, "list", the_list["id"])
