"""The group's moderators' pages: join requests (approve, reject), the moderation page
(edit the group, its avatar, pinned posts, recent posts to pin or remove, hand over or
delete it), members' roles, removals and bans. (The reports about the group's posts are
the reports room's page: timeline/reports/group_views.py.) Each action is one call into
moderation.py, which checks the actor's role again; someone without it gets a 403 page."""

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.auth import current_uid, logged_in_uid
from accounts.avatars import AVATAR_MAX_BYTES
from socialsite.offslot import Busy
from socialsite.ratelimit import rate_limited

from ..web import login_first, next_url, other_user, page_number, require_page
from . import moderation, selectors
from .forms import GroupEditForm, RoleForm
from .page_reads import pinned_statuses
from .records import Group
from .services import GroupError, edit_group
from .views import (
    MEMBERS_PER_PAGE,
    field_of,
    group_and_member_or_404,
    group_refused,
    is_moderator,
)


def _moderator_or_403(request: HttpRequest, handle: str) -> Group:
    """The group, if the viewer moderates it (else a 403 page; a 404 for no such group)."""
    group, membership = group_and_member_or_404(handle, current_uid(request))
    if not is_moderator(membership):
        raise PermissionError(f"Only the moderators of {group.name} see this.")
    return group


def moderators_page(view):
    """A GET page of the group's moderators: login first, a 403 page for anyone else."""

    @require_GET
    def page(request: HttpRequest, handle: str) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            group = _moderator_or_403(request, handle)
        except PermissionError as error:
            return group_refused(request, error)
        return view(request, group)

    return page


def moderation_action(view):
    limited = rate_limited("group_moderation")(view)
    return require_POST(
        login_first(lambda handle, **rest: reverse("group", args=[handle]))(limited)
    )


def act_as_moderator(
    request: HttpRequest, handle: str, action: Callable[[Group, int], object], done: str, back: str
) -> HttpResponse:
    """Runs `action(group, moderator uid)`, then back to `next` or `back` saying `done`;
    the services' refusal is the error page (403 for someone without the role)."""
    try:
        group = _moderator_or_403(request, handle)
        action(group, logged_in_uid(request))
    except (ValueError, PermissionError) as error:
        return group_refused(request, error)
    messages.success(request, done.format(name=group.name))
    return redirect(next_url(request, reverse(back, args=[group.handle])))


@moderators_page
def requests(request: HttpRequest, group: Group) -> HttpResponse:
    """Who asks to join the group, oldest first, each with approve and reject."""
    number = page_number(request)
    people, has_more = selectors.requests(group.id, page=number, count=MEMBERS_PER_PAGE)
    require_page(number, people, has_more)
    context = {
        "group": group,
        "people": people,
        "number": number,
        "has_newer": number > 1,
        "has_older": has_more,
    }
    return render(request, "groups/requests.html", context)


def _requester_action(change: Callable, done: str):
    @moderation_action
    def view(request: HttpRequest, handle: str, login: str) -> HttpResponse:
        person = other_user(login)
        return act_as_moderator(
            request,
            handle,
            lambda group, by: change(group.id, by, person["id"]),
            done.replace("{login}", person["login"]),
            "group_requests",
        )

    return view


approve = _requester_action(moderation.approve_request, "@{login} is now a member of {name}.")
reject = _requester_action(moderation.reject_request, "You turned down @{login}'s request.")


@moderators_page
def moderate(request: HttpRequest, group: Group) -> HttpResponse:
    return render_moderation(request, group, GroupEditForm(initial=_edit_initial(group)))


def _edit_initial(group: Group) -> dict:
    return {"name": group.name, "description": group.description, "replies": group.replies}


def render_moderation(
    request: HttpRequest, group: Group, form: GroupEditForm, status: int = 200, **errors: str
) -> HttpResponse:
    """The moderation page: the edit form (`form`, bound with its errors), the avatar,
    the pinned posts and the group's newest posts, each to pin or remove."""
    viewer = current_uid(request)
    page = selectors.group_page(group.id, viewer, page=1, count=settings.STATUSES_PER_PAGE)
    context = {
        "group": group,
        "form": form,
        "owner": group.owner == viewer,
        "pinned": pinned_statuses(group, viewer),
        "recent": page.statuses,
        **errors,
    }
    return render(request, "groups/moderate.html", context, status=status)


@require_http_methods(["GET", "POST"])
def edit(request: HttpRequest, handle: str) -> HttpResponse:
    """GET: the moderation page. POST: saves the group's name, description, replies."""
    if request.method == "GET":
        return moderate(request, handle)
    return _save_edit(request, handle=handle)


@moderation_action
def _save_edit(request: HttpRequest, handle: str) -> HttpResponse:
    try:
        group = _moderator_or_403(request, handle)
    except PermissionError as error:
        return group_refused(request, error)
    form = GroupEditForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            edit_group(
                group.id,
                logged_in_uid(request),
                name=data["name"],
                description=data["description"],
                replies=data["replies"],
            )
        except GroupError as error:
            form.add_error(field_of(error), str(error))
        else:
            messages.success(request, "Saved.")
            return redirect("group_moderate", group.handle)
    return render_moderation(request, group, form, status=400)


@moderation_action
def avatar(request: HttpRequest, handle: str) -> HttpResponse:
    """Takes an uploaded picture (`avatar`) as the group's avatar."""
    try:
        group = _moderator_or_403(request, handle)
    except PermissionError as refused:
        return group_refused(request, refused)
    upload = request.FILES.get("avatar")
    wrong = ""
    if upload is None:
        wrong = "Choose a picture: JPEG, PNG or WebP."
    elif upload.size is not None and upload.size > AVATAR_MAX_BYTES:
        wrong = f"A picture is at most {AVATAR_MAX_BYTES // (1024 * 1024)} MB."
    else:
        try:
            moderation.set_avatar(group.id, logged_in_uid(request), upload.read())
        except ValueError as refusal:  # a bad picture; GroupError, NoSuchGroup
            wrong = str(refusal)
        except Busy as busy:
            wrong = f"{busy} Try again in a minute."
    if wrong:
        form = GroupEditForm(initial=_edit_initial(group))
        return render_moderation(request, group, form, status=400, avatar_error=wrong)
    messages.success(request, "The group's avatar is changed.")
    return redirect("group_moderate", group.handle)


def item_action(
    change: Callable, done: str, *, id_name: str = "status_id", back: str = "group_moderate"
):
    """A moderators' POST about one item of the group (a post; a report, in
    reports.group_views): `change(group id, moderator's uid, the item's id)`, the id the
    URL's `id_name`; says `done` and goes `back`."""

    @moderation_action
    def view(request: HttpRequest, handle: str, **url: int) -> HttpResponse:
        item = url[id_name]
        return act_as_moderator(
            request, handle, lambda group, by: change(group.id, by, item), done, back
        )

    return view


pin = item_action(moderation.pin, "Pinned to {name}.")
unpin = item_action(moderation.unpin, "Unpinned.")
remove_post = item_action(moderation.remove_post, "The post is off {name}.")


def _member_action(change: Callable, done: str, *, with_role: bool = False):
    @moderation_action
    def view(request: HttpRequest, handle: str, login: str) -> HttpResponse:
        person = other_user(login)
        said = done.replace("{login}", person["login"])
        if with_role:
            form = RoleForm(request.POST)
            if not form.is_valid():
                return group_refused(request, GroupError(form.errors["role"][0]))
            role = form.cleaned_data["role"]
            said = said.replace("{role}", role)
            return act_as_moderator(
                request,
                handle,
                lambda group, by: change(group.id, by, person["id"], role),
                said,
                "group_members",
            )
        return act_as_moderator(
            request,
            handle,
            lambda group, by: change(group.id, by, person["id"]),
            said,
            "group_members",
        )

    return view


def _ban(group_id: int, by: int, uid: int) -> None:
    moderation.remove_member(group_id, by, uid, ban=True)


remove_member = _member_action(moderation.remove_member, "@{login} is out of {name}.")
ban = _member_action(_ban, "@{login} is out of {name}, and may not join again.")
unban = _member_action(moderation.unban, "@{login} may join {name} again.")
set_role = _member_action(moderation.set_role, "@{login} is a {role} of {name}.", with_role=True)
transfer = _member_action(moderation.transfer_ownership, "@{login} owns {name} now.")


@moderation_action
def delete(request: HttpRequest, handle: str) -> HttpResponse:
    """The owner deletes the group; a job takes its posts and memberships away."""
    try:
        group = _moderator_or_403(request, handle)
        moderation.delete_group(group.id, logged_in_uid(request))
    except (ValueError, PermissionError) as error:
        return group_refused(request, error)
    messages.success(request, f"{group.name} is deleted; its posts go in a moment.")
    return redirect("groups")
