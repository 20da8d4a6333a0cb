"""Groups through the client API: the site's own JSON endpoints under /api/v1/groups
(Mastodon has no groups), each a thin call into timeline.groups' services, selectors
and moderation. A group's timeline also reads as a list (timelines.user_list: the list
id "g<group id>"), so a Mastodon client shows it with no change."""

from collections.abc import Callable
from functools import wraps

from django.core.exceptions import RequestDataTooBig

from accounts.avatars import BadAvatar
from accounts.services import get_users
from socialsite import offslot
from timeline.feeds.selectors import cursor_page
from timeline.groups import moderation, selectors, services
from timeline.groups.records import Group, Membership
from timeline.groups.selectors import NoSuchGroup
from timeline.groups.services import GroupError

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    check_caller,
    cursor_params,
    endpoint,
    limit_param,
    limit_rate,
    link_header,
    params,
    uploaded,
    viewer,
)
from .accounts import profile
from .people import people_page

# The list id a group's timeline has among a caller's lists ("g17"): no list of the
# site's has a letter in its id.
LIST_PREFIX = "g"
# Refusals that say who may act: 403; any other GroupError is bad input, 422.
FORBIDDEN = {
    moderation.NOT_A_MODERATOR,
    moderation.NOT_THE_OWNER,
    services.NOT_A_MEMBER,
    services.ANNOUNCEMENTS,
}


def group_errors(view: Callable) -> Callable:
    """Turns the groups' refusals into the API's errors: no such group 404, someone who
    may not 403, anything else 422 ({"error": ...})."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except NoSuchGroup:
            raise ApiError(404, "Record not found") from None
        except GroupError as error:
            raise ApiError(403 if str(error) in FORBIDDEN else 422, str(error)) from None

    return wrapped


def group_entity(request: ApiRequest, group: Group, member: Membership | None = None) -> dict:
    """A group as the API shows it, with the caller's standing in it if known."""
    site = entities.site_of(request)
    shown = {
        "id": str(group.id),
        "handle": group.handle,
        "name": group.name,
        "description": group.description,
        "kind": group.kind,
        "url": f"{site}/g/{group.handle}/",
        "avatar": entities.absolute(site, moderation.group_avatar_url(group, 400)),
        "avatar_static": entities.absolute(site, moderation.group_avatar_url(group, 400)),
        "owner_id": str(group.owner),
        "members_count": group.members,
        "created_at": entities.iso(group.created),
        "replies": group.replies,
        "pinned": [str(status_id) for status_id in group.pinned],
        "list_id": list_id(group.id),
    }
    if member is not None:
        shown["membership"] = {
            "role": member.role,
            "requested": member.requested,
            "banned": member.banned,
            "show_in_home": member.show_in_home,
        }
    return shown


def list_id(group_id: int) -> str:
    return f"{LIST_PREFIX}{group_id}"


def group_of_list(value: str) -> int | None:
    """The group id a list id names ("g17": 17), or None for a list's own id."""
    if not value.startswith(LIST_PREFIX):
        return None
    try:
        return selectors.group_id_of(value[len(LIST_PREFIX) :])
    except NoSuchGroup:
        raise ApiError(404, "Record not found") from None


def found_group(group_id: str) -> Group:
    group = selectors.get_group(group_id)
    if group is None:
        raise ApiError(404, "Record not found")
    return group


def shown_group(request: ApiRequest, group: Group) -> dict:
    uid = viewer(request)
    return group_entity(request, group, selectors.membership(group.id, uid) if uid else None)


def writing(request: ApiRequest, limit: str) -> int:
    """The caller's uid, for a change: a token with `write`, counted against `limit`."""
    check_caller(request, "write", user=True, public=False)
    limit_rate(request, limit)
    return caller_uid(request)


def text_param(found: dict, name: str) -> str | None:
    value = found.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(422, f"{name} must be text.")
    return value


def flag_param(found: dict, name: str) -> bool | None:
    value = found.get(name)
    if value is None or value == "":
        return None
    if value in (True, "true", "1", 1):
        return True
    if value in (False, "false", "0", 0):
        return False
    raise ApiError(422, f"{name} must be true or false.")


@endpoint("GET", "POST", scope="read")
@group_errors
def groups(request: ApiRequest) -> ApiResult:
    """Your groups (and pending requests), or a new group."""
    if request.method == "GET":
        return [
            group_entity(request, group, member)
            for group, member in selectors.groups_of(caller_uid(request))
        ]
    uid = writing(request, "group_creations")
    found = params(request)
    group_id = services.create_group(
        uid,
        text_param(found, "handle") or "",
        text_param(found, "name") or "",
        text_param(found, "description") or "",
        text_param(found, "kind") or "public",
        replies=flag_param(found, "replies") is not False,
    )
    return shown_group(request, found_group(str(group_id)))


@endpoint("GET", public=True, user=False)
@group_errors
def lookup(request: ApiRequest) -> ApiResult:
    handle = params(request).get("handle")
    group = selectors.group_for_handle(handle) if isinstance(handle, str) else None
    if group is None:
        raise ApiError(404, "Record not found")
    return shown_group(request, group)


@endpoint("GET", "PATCH", "DELETE", public=True, user=False)
@group_errors
def group(request: ApiRequest, group_id: str) -> ApiResult:
    """A group; its owner deletes it; its moderators edit it (name, description,
    replies, avatar)."""
    found = found_group(group_id)
    if request.method == "GET":
        return shown_group(request, found)
    uid = writing(request, "group_moderation")
    if request.method == "DELETE":
        moderation.delete_group(found.id, uid)
        return {}
    given = params(request)
    services.edit_group(
        found.id,
        uid,
        name=text_param(given, "name"),
        description=text_param(given, "description"),
        replies=flag_param(given, "replies"),
    )
    avatar = uploaded(request, "avatar")
    if avatar is not None:
        try:
            moderation.set_avatar(found.id, uid, avatar.read())
        except (BadAvatar, RequestDataTooBig) as error:
            raise ApiError(422, str(error)) from None
        except offslot.Busy as error:
            raise ApiError(503, str(error), error.retry_after) from None
    return shown_group(request, found_group(group_id))


@endpoint("POST", scope="write")
@group_errors
def join(request: ApiRequest, group_id: str) -> ApiResult:
    """Joins a group, or asks to join a private one (the answer's membership says)."""
    uid = writing(request, "group_joins")
    services.join_group(found_group(group_id).id, uid)
    return shown_group(request, found_group(group_id))


@endpoint("POST", scope="write")
@group_errors
def leave(request: ApiRequest, group_id: str) -> ApiResult:
    """Leaves a group, or withdraws a request to join it."""
    uid = writing(request, "group_joins")
    found = found_group(group_id)
    member = selectors.membership(found.id, uid)
    if member.requested:
        services.cancel_request(found.id, uid)
    else:
        services.leave_group(found.id, uid)
    return shown_group(request, found_group(group_id))


def readable(request: ApiRequest, group_id: str) -> Group:
    """The group, if the caller may read its posts and members: a private group's are
    its members' alone (404 for anyone else, as a list that isn't yours)."""
    found = found_group(group_id)
    if found.is_private:
        uid = viewer(request)
        if uid is None or not selectors.membership(found.id, uid).is_member:
            raise ApiError(404, "Record not found")
    return found


@endpoint("GET", public=True, user=False)
@group_errors
def members(request: ApiRequest, group_id: str) -> ApiResult:
    """The group's members (Accounts), the latest joined first."""
    found = readable(request, group_id)
    return people_page(
        request, lambda number, count: selectors.members(found.id, page=number, count=count)
    )


@endpoint("GET", scope="read")
@group_errors
def requests(request: ApiRequest, group_id: str) -> ApiResult:
    """Who asks to join (Accounts), for the group's moderators."""
    found = moderation.check_moderator(group_id, caller_uid(request)).group
    return people_page(
        request, lambda number, count: selectors.requests(found.id, page=number, count=count)
    )


def moderating(action: Callable[[int, int, int], object], method: str = "POST") -> Callable:
    """An endpoint acting on one account of a group (`account_id`) as a moderator."""

    @endpoint(method, scope="write")
    @group_errors
    def view(request: ApiRequest, group_id: str, account_id: str) -> ApiResult:
        uid = writing(request, "group_moderation")
        found = found_group(group_id)
        action(found.id, uid, profile(account_id)["id"])
        return shown_group(request, found_group(group_id))

    return view


@endpoint("GET", scope="read")
@group_errors
def bans(request: ApiRequest, group_id: str) -> ApiResult:
    """Who is barred from the group (Accounts), for its moderators."""
    found = moderation.check_moderator(group_id, caller_uid(request)).group
    barred = moderation.banned(found.id)

    def page(number: int, count: int) -> tuple[list, bool]:
        start = (number - 1) * count
        return get_users(barred[start : start + count]), len(barred) > start + count

    return people_page(request, page)


approve = moderating(moderation.approve_request)
reject = moderating(moderation.reject_request)
unban = moderating(moderation.unban, "DELETE")


@endpoint("DELETE", scope="write")
@group_errors
def remove_member(request: ApiRequest, group_id: str, account_id: str) -> ApiResult:
    """Removes a member (`ban=true`: and bars them from joining again)."""
    uid = writing(request, "group_moderation")
    found = found_group(group_id)
    ban = flag_param(params(request), "ban") is True
    moderation.remove_member(found.id, uid, profile(account_id)["id"], ban=ban)
    return {}


@endpoint("POST", scope="write")
@group_errors
def role(request: ApiRequest, group_id: str, account_id: str) -> ApiResult:
    """The owner makes a member a moderator (`role=moderator`) or a member again."""
    uid = writing(request, "group_moderation")
    found = found_group(group_id)
    given = text_param(params(request), "role") or ""
    moderation.set_role(found.id, uid, profile(account_id)["id"], given)
    return shown_group(request, found_group(group_id))


@endpoint("POST", scope="write")
@group_errors
def transfer(request: ApiRequest, group_id: str) -> ApiResult:
    """The owner hands the group over to a member (`account_id`)."""
    uid = writing(request, "group_moderation")
    found = found_group(group_id)
    account_id = params(request).get("account_id")
    if not isinstance(account_id, str | int):
        raise ApiError(422, "Name the member: account_id.")
    moderation.transfer_ownership(found.id, uid, profile(account_id)["id"])
    return shown_group(request, found_group(group_id))


@endpoint("POST", "DELETE", scope="write")
@group_errors
def pin(request: ApiRequest, group_id: str, status_id: str) -> ApiResult:
    """Pins a post of the group (POST; at most 3) or unpins it (DELETE)."""
    uid = writing(request, "group_moderation")
    found = found_group(group_id)
    change = moderation.pin if request.method == "POST" else moderation.unpin
    change(found.id, uid, status_number(status_id))
    return shown_group(request, found_group(group_id))


def status_number(value: str) -> int:
    try:
        return selectors.group_id_of(value)
    except NoSuchGroup:
        raise ApiError(404, "Record not found") from None


@endpoint("GET", public=True, user=False)
@group_errors
def statuses(request: ApiRequest, group_id: str) -> ApiResult:
    """The group's timeline, paged as timelines are."""
    return group_timeline(request, readable(request, group_id).id)


@endpoint("DELETE", scope="write")
@group_errors
def remove_status(request: ApiRequest, group_id: str, status_id: str) -> ApiResult:
    """A moderator removes a post from the group (then deleted)."""
    uid = writing(request, "group_moderation")
    moderation.remove_post(found_group(group_id).id, uid, status_number(status_id))
    return {}


def group_timeline(request: ApiRequest, group_id: int) -> ApiResult:
    """A page of the group's timeline for the caller (the one visibility rule applies)."""
    found = params(request)
    read = cursor_page(
        "group", group_id, cursor_params(found), limit_param(found), viewer=viewer(request)
    )
    shown = entities.statuses(entities.site_of(request), read.statuses)
    return shown, link_header(request, shown, more=read.has_older)


def group_lists(uid: int) -> list[dict]:
    """The caller's groups as lists (GET /api/v1/lists): id "g<id>", the group's name."""
    return [
        {
            "id": list_id(found.id),
            "title": found.name,
            "replies_policy": "list",
            "exclusive": False,
        }
        for found, member in selectors.groups_of(uid)
        if member.is_member
    ]
