"""The group pages: my groups and the directory, a new group, a group's page (its
timeline, about, pinned posts, the join / leave / request / cancel button, the "show in
home" switch and a post box), its members and its join requests. The moderators' pages
are in moderation_views.py. Posting to a group goes through /statuses/ (timeline.posting)
with `group=<handle>`; a refused post comes back here (render_group)."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.auth import current_uid, logged_in_uid
from accounts.backends import read_with_user
from accounts.services import get_users
from socialsite.ratelimit import rate_limited
from socialsite.views import error_page

from ..forms import StatusForm, blank_status_form
from ..web import login_first, next_url, page_number, require_page
from . import moderation, selectors, services
from .forms import ORDERS, QUERY_MAX_LENGTH, GroupForm
from .page_reads import pinned_statuses, with_roles
from .records import Group, Membership
from .selectors import (
    NoSuchGroup,
    StandingRead,
    group_and_membership,
    kept_group_id,
    queue_standing,
)
from .services import GroupError

GROUPS_PER_PAGE = 30
MEMBERS_PER_PAGE = 50


def group_or_404(handle: str) -> Group:
    """The group a URL names, or 404."""
    return group_and_member_or_404(handle, None)[0]


def group_and_member_or_404(
    handle: str, uid: int | None, *, first: StandingRead | None = None
) -> tuple[Group, Membership]:
    """The group a URL names and how `uid` (None: a visitor) stands in it, or 404;
    `first`: those reads, made already (selectors.queue_standing)."""
    group, membership = group_and_membership(handle[:60], uid, first=first)
    if group is None:
        raise Http404(f"There is no group {handle[:60]}: it may have been deleted.")
    return group, membership


def member_of(group: Group, uid: int | None) -> Membership | None:
    return selectors.membership(group.id, uid) if uid is not None else None


def is_moderator(membership: Membership | None) -> bool:
    return membership is not None and membership.moderates


def may_read(group: Group, membership: Membership | None) -> bool:
    """Whether the viewer may read the group's posts: a private group's are its members'."""
    return group.kind != "private" or (membership is not None and membership.role is not None)


def may_post(group: Group, membership: Membership | None) -> bool:
    """Whether the viewer may post to the group (not reply): members, and in an
    announcement group its owner and moderators alone."""
    if membership is None or membership.role is None or membership.banned:
        return False
    return group.kind != "announcement" or is_moderator(membership)


def group_refused(request: HttpRequest, error: Exception) -> HttpResponse:
    """The error page for a refused group action: 404 for what is gone, 403 for what
    isn't the viewer's to do (moderation.py's refusals of someone without the role),
    400 for the rest."""
    if isinstance(error, NoSuchGroup):
        return error_page(request, 404, f"{error} It may have been deleted.")
    status = 403 if isinstance(error, PermissionError) else 400
    return error_page(request, status, str(error))


def _listing_page(request: HttpRequest) -> tuple[str, str, int]:
    query = request.GET.get("q", "").strip()[:QUERY_MAX_LENGTH]
    order = request.GET.get("order", "members")
    if order not in ORDERS:
        raise Http404(f"Order the directory by {' or '.join(ORDERS)}, not {order[:30]!r}.")
    return query, order, page_number(request)


@require_GET
def groups(request: HttpRequest) -> HttpResponse:
    """The logged-in user's groups, then the directory of every group (search by name or
    handle; most members first, or newest)."""
    query, order, number = _listing_page(request)
    found, has_more = selectors.directory(query, order=order, page=number, count=GROUPS_PER_PAGE)
    require_page(number, found, has_more)
    uid = current_uid(request)
    mine = selectors.groups_of(uid) if uid is not None and number == 1 and not query else []
    context = {
        "mine": mine,
        "found": found,
        "query": query,
        "order": order,
        "number": number,
        "has_newer": number > 1,
        "has_older": has_more,
    }
    return render(request, "groups/groups.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def new_group(request: HttpRequest) -> HttpResponse:
    """The form to make a group; its maker is its owner."""
    if request.method == "POST":
        return _create_group(request)
    return render(request, "groups/new.html", {"form": GroupForm()})


@rate_limited("group_creations")
def _create_group(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            group_id = services.create_group(
                logged_in_uid(request),
                data["handle"],
                data["name"],
                data["description"],
                data["kind"],
                replies=data["replies"],
            )
        except GroupError as error:
            form.add_error(field_of(error), str(error))
        else:
            group = selectors.get_group(group_id)
            messages.success(request, "Group created. Post to it, and invite people to join.")
            return redirect("group", group.handle if group else data["handle"])
    return render(request, "groups/new.html", {"form": form}, status=400)


def field_of(error: GroupError) -> str | None:
    """The field a refusal is about, where its message names one."""
    text = str(error).lower()
    return next((name for name in ("handle", "name", "description") if name in text), None)


@require_GET
def group(request: HttpRequest, handle: str) -> HttpResponse:
    # The group and the reader's standing go with the session's read (one round trip
    # fewer) where this process knows the group's id.
    group_id, first = kept_group_id(handle[:60]), None
    if group_id is not None:
        read = read_with_user(request, lambda pipe, uid: queue_standing(pipe, group_id, uid))
        first = read.reads if read is not None else None
    the_group, membership = group_and_member_or_404(handle, current_uid(request), first=first)
    return render_group(request, the_group, blank_status_form(), membership=membership)


def render_group(
    request: HttpRequest,
    group: Group,
    form: StatusForm,
    status: int = 200,
    *,
    membership: Membership | None = None,
) -> HttpResponse:
    """A group's page: about, the viewer's buttons, pinned posts and its timeline (a
    private group's to members only), with `form` in its post box; `membership`: the
    viewer's in the group, if read already."""
    number, viewer = page_number(request), current_uid(request)
    if membership is None:
        membership = member_of(group, viewer)
    readable = may_read(group, membership)
    context: dict[str, Any] = {
        "group": group,
        "membership": membership,
        "readable": readable,
        "moderator": is_moderator(membership),
        "may_post": may_post(group, membership),
        "form": form,
    }
    if readable:
        page = selectors.group_page(group.id, viewer, page=number, count=settings.STATUSES_PER_PAGE)
        require_page(number, page.statuses, page.has_older)
        pinned = pinned_statuses(group, viewer) if number == 1 else []
        context |= {"page": page, "pinned": pinned}
    elif number > 1:
        raise Http404(f"There is no page {number} here.")
    return render(request, "groups/group.html", context, status=status)


def _group_action(view):
    """A POST on /g/<handle>/...: visitors log in first, and come back to the group."""
    return require_POST(login_first(lambda handle: reverse("group", args=[handle]))(view))


def _act(request: HttpRequest, handle: str, action, done) -> HttpResponse:
    """Runs `action(group, uid)` (its result formats `done`, or chooses from a dict),
    then goes back to `next` or the group's page; a refusal is the error page."""
    the_group = group_or_404(handle)
    try:
        result = action(the_group, logged_in_uid(request))
    except (ValueError, PermissionError) as error:
        return group_refused(request, error)
    said = done.get(result, done.get(None)) if isinstance(done, dict) else done
    if said:
        messages.success(request, said.format(name=the_group.name))
    return redirect(next_url(request, reverse("group", args=[the_group.handle])))


@_group_action
@rate_limited("group_joins")
def join(request: HttpRequest, handle: str) -> HttpResponse:
    """Joins a public or announcement group, or asks to join a private one."""
    return _act(
        request,
        handle,
        lambda group, uid: services.join_group(group.id, uid),
        {
            "member": "You joined {name}.",
            "requested": "You asked to join {name}: a moderator approves or declines.",
        },
    )


@_group_action
def leave(request: HttpRequest, handle: str) -> HttpResponse:
    """Leaves the group, or takes back a request to join it."""

    def leave_or_cancel(group: Group, uid: int) -> str:
        membership = selectors.membership(group.id, uid)
        if membership is not None and membership.requested and membership.role is None:
            services.cancel_request(group.id, uid)
            return "cancelled"
        services.leave_group(group.id, uid)
        return "left"

    return _act(
        request,
        handle,
        leave_or_cancel,
        {"cancelled": "You took back your request to join {name}.", "left": "You left {name}."},
    )


@_group_action
def show_in_home(request: HttpRequest, handle: str) -> HttpResponse:
    """The member's "show in home" switch: `on` is 1 or 0."""
    on = request.POST.get("on", "")
    if on not in ("0", "1"):
        return error_page(request, 400, "Say on=1 (show its posts in your home) or on=0.")
    return _act(
        request,
        handle,
        lambda group, uid: services.set_show_in_home(group.id, uid, on == "1"),
        "{name}'s posts show in your home." if on == "1" else "{name}'s posts stay off your home.",
    )


def readable_or_404(request: HttpRequest, handle: str) -> tuple[Group, Membership | None]:
    """The group and the viewer's membership, for a page its members alone may see in a
    private group (as a private list's, it is a 404 to others: 'there is nothing here')."""
    the_group, membership = group_and_member_or_404(handle, current_uid(request))
    if not may_read(the_group, membership):
        raise Http404(f"Only the members of {the_group.name} see this.")
    return the_group, membership


@require_GET
def members(request: HttpRequest, handle: str) -> HttpResponse:
    """The group's members, owner and moderators first (a private group's to members only)."""
    the_group, membership = readable_or_404(request, handle)
    number = page_number(request)
    found, has_more = selectors.members(the_group.id, page=number, count=MEMBERS_PER_PAGE)
    require_page(number, found, has_more)
    people = with_roles(the_group, found)
    moderator = is_moderator(membership)
    # Whom the group bars, for its moderators to let back (the latest first).
    barred = get_users(moderation.banned(the_group.id)[:MEMBERS_PER_PAGE]) if moderator else []
    context = {
        "group": the_group,
        "membership": membership,
        "moderator": moderator,
        "people": people,
        "barred": barred,
        "number": number,
        "has_newer": number > 1,
        "has_older": has_more,
    }
    return render(request, "groups/members.html", context)


def composer_group(form: StatusForm, handle: str) -> Group | None:
    """The group a post box names (`group=<handle>`, from the picker or a group's page),
    or None for none; an unknown one is an error on `form`."""
    handle = handle.strip().removeprefix("g/")
    if not handle:
        return None
    group = group_and_membership(handle[:60], None)[0]
    if group is None:
        form.add_error(None, f"There is no group {handle[:60]}: pick one of yours.")
    return group
