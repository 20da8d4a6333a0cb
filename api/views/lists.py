"""Your lists and their members, through the lists' services."""

from timeline.lists import selectors, services
from timeline.lists.records import TimelineList

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    endpoint,
    has_scope,
    id_param,
    limit_rate,
    params,
    token_caller,
)
from . import groups
from .accounts import profile
from .people import people_page


def own_list(request: ApiRequest, list_id: str | int) -> TimelineList:
    """The caller's list `list_id`; 404 for anyone else's, as Mastodon's lists are
    their owner's alone."""
    found = selectors.get_list(id_param(list_id), caller_uid(request))
    if found is None or found["owner"] != caller_uid(request):
        raise ApiError(404, "Record not found")
    return found


@endpoint("GET", "POST", scope="read")
def lists(request: ApiRequest) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        # Then the caller's groups, whose timelines read as lists (views.groups).
        own = [entities.user_list(found) for found in selectors.lists_of(uid, uid)]
        return own + groups.group_lists(uid)
    check_write(request)
    title = params(request).get("title")
    list_id = services.create_list(uid, title if isinstance(title, str) else "")
    return entities.user_list(own_list(request, list_id))


def check_write(request: ApiRequest) -> None:
    if not has_scope(token_caller(request), "write"):
        raise ApiError(403, "This action is outside the authorized scopes")
    limit_rate(request, "list_changes")


def group_list(request: ApiRequest, list_id: str) -> dict | None:
    """The list entity of a group's timeline ("g17"), read-only; None for a list's id."""
    group_id = groups.group_of_list(list_id)
    if group_id is None:
        return None
    if request.method != "GET":
        raise ApiError(422, "This list is a group's timeline: change the group instead.")
    found = groups.readable(request, str(group_id))
    return {"id": list_id, "title": found.name, "replies_policy": "list", "exclusive": False}


@endpoint("GET", "PUT", "DELETE", scope="read")
def one_list(request: ApiRequest, list_id: str) -> ApiResult:
    of_group = group_list(request, list_id)
    if of_group is not None:
        return of_group
    found = own_list(request, list_id)
    if request.method == "GET":
        return entities.user_list(found)
    check_write(request)
    if request.method == "DELETE":
        services.delete_list(caller_uid(request), found["id"])
        return {}
    title = params(request).get("title")
    services.rename_list(caller_uid(request), found["id"], title if isinstance(title, str) else "")
    return entities.user_list(own_list(request, list_id))


# Accounts one call may add to or remove from a list.
MEMBERS_PER_CALL = 40


@endpoint("GET", "POST", "DELETE", scope="read")
def members(request: ApiRequest, list_id: str) -> ApiResult:
    if group_list(request, list_id) is not None:
        return groups.members(request, group_id=list_id[len(groups.LIST_PREFIX) :])
    found = own_list(request, list_id)
    if request.method == "GET":
        return people_page(
            request, lambda number, count: selectors.members_page(found["id"], number, count)
        )
    check_write(request)
    given = params(request)
    asked = given.get("account_ids[]") or given.get("account_ids") or []
    asked = [asked] if isinstance(asked, str | int) else list(asked)
    if not asked or len(asked) > MEMBERS_PER_CALL:
        raise ApiError(422, f"Give 1 to {MEMBERS_PER_CALL} account_ids.")
    change = services.add_member if request.method == "POST" else services.remove_member
    for member in [profile(account_id)["id"] for account_id in asked]:
        change(caller_uid(request), found["id"], member)
    return {}
