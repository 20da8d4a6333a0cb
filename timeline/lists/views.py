"""Pages to manage lists of users and read their timelines."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.auth import current_uid, logged_in_uid
from accounts.services import get_user, uid_for_login
from socialsite.ratelimit import rate_limited

from ..forms import ListForm, ListNameForm
from ..web import login_first, next_url, other_user, refused, render_people, render_statuses
from . import selectors, services
from .selectors import NoSuchList


def _list_or_404(list_id: int, viewer: int | None) -> dict:
    # Someone else's private list is as missing as a deleted one.
    the_list = selectors.get_list(list_id, viewer)
    # A deleted user's lists go with them.
    owner = get_user(the_list["owner"]) if the_list else None
    if the_list is None or owner is None:
        raise Http404(f"There is no list {list_id}: it may have been deleted.")
    return {**the_list, "owner_login": owner["login"]}


@require_http_methods(["GET", "POST"])
@login_required
@rate_limited("list_changes")
def my_lists(request: HttpRequest) -> HttpResponse:
    """Your lists, and a form to make one."""
    uid = logged_in_uid(request)
    form = ListForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = form.cleaned_data
        list_id = services.create_list(uid, data["name"], private=data["private"])
        messages.success(request, "List created. Add people to it from its members page.")
        return redirect("list", list_id)
    context = {"title": "Your lists", "lists": selectors.lists_of(uid, uid), "form": form}
    return render(request, "timeline/lists.html", context, status=400 if form.errors else 200)


@require_GET
def user_lists(request: HttpRequest, login: str) -> HttpResponse:
    person = other_user(login)
    shown = selectors.lists_of(person["id"], current_uid(request))
    context = {"title": f"Lists by @{person['login']}", "lists": shown}
    return render(request, "timeline/lists.html", context)


@require_GET
def list_detail(request: HttpRequest, list_id: int) -> HttpResponse:
    """A list's timeline: the statuses of its members."""
    the_list = _list_or_404(list_id, current_uid(request))
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.list_timeline_page(list_id, number, count, viewer),
        "timeline/list.html",
        {"list": the_list, "form": ListNameForm(initial=the_list)},
    )


@require_GET
def list_members(request: HttpRequest, list_id: int) -> HttpResponse:
    return render_members(request, list_id)


def render_members(request: HttpRequest, list_id: int, error: str = "") -> HttpResponse:
    """The members page; with `error` (a refused add or removal), the error under its form
    with the login typed, as a 400."""
    the_list = _list_or_404(list_id, current_uid(request))
    context: dict[str, Any] = {"list": the_list}
    if error:
        context |= {"member_error": error, "member_login": request.POST.get("login", "")[:60]}
    response = render_people(
        request,
        lambda number, count: selectors.members_page(list_id, number, count),
        "timeline/list_members.html",
        context,
    )
    response.status_code = 400 if error else 200
    return response


def _change(request: HttpRequest, change: Callable[[int], str], back: str):
    """Runs `change(uid)` (which returns what to tell the user), turning refusals into
    error pages, then goes back to `next` or `back`."""
    try:
        done = change(logged_in_uid(request))
    except (ValueError, PermissionError) as error:
        return refused(request, error)
    messages.success(request, done)
    return redirect(next_url(request, back))


def _member_uid(request: HttpRequest) -> int:
    login = request.POST.get("login", "").strip().removeprefix("@")
    uid = uid_for_login(login)
    if uid is None:
        raise ValueError(f"There is no user @{login}." if login else "Say whose login.")
    return uid


def _list_change(view):
    limited = rate_limited("list_changes")(view)
    return require_POST(login_first(lambda list_id: reverse("list", args=[list_id]))(limited))


@_list_change
def rename_list(request: HttpRequest, list_id: int) -> HttpResponse:
    def rename(uid: int) -> str:
        services.rename_list(uid, list_id, request.POST.get("name", ""))
        return "List renamed."

    return _change(request, rename, reverse("list", args=[list_id]))


@_list_change
def set_privacy(request: HttpRequest, list_id: int) -> HttpResponse:
    def change(uid: int) -> str:
        private = request.POST.get("private", "")
        if private not in ("0", "1"):
            raise ValueError("Say private=1 (only you see the list) or private=0 (anyone does).")
        services.set_private(uid, list_id, private == "1")
        return "The list is private: only you see it." if private == "1" else "The list is public."

    return _change(request, change, reverse("list", args=[list_id]))


@_list_change
def delete_list(request: HttpRequest, list_id: int) -> HttpResponse:
    def delete(uid: int) -> str:
        services.delete_list(uid, list_id)
        return "List deleted."

    return _change(request, delete, reverse("lists"))


def _member_change(change: Callable[[int, int, int], str], done: str):
    """The view adding someone to a list, or removing them, by the login posted."""

    @_list_change
    def view(request: HttpRequest, list_id: int) -> HttpResponse:
        try:
            login = change(logged_in_uid(request), list_id, _member_uid(request))
        except (NoSuchList, PermissionError) as error:
            return refused(request, error)
        except ValueError as error:
            # Said on the members page, by the form, rather than on an error page.
            return render_members(request, list_id, str(error))
        messages.success(request, f"{done} @{login}.")
        return redirect(next_url(request, reverse("list_members", args=[list_id])))

    return view


add_member = _member_change(services.add_member, "Added")
remove_member = _member_change(services.remove_member, "Removed")
