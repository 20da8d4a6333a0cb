"""The conversation pages (a status with its replies, mentions, tags, likes) and the
reply, repost and like buttons."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid

from . import conversations, reactions, services
from .forms import StatusForm
from .views import _other_user, login_first, next_url, refused, statuses_page


def _status_page(request: HttpRequest, status_id: int, form: StatusForm, status: int = 200):
    view = conversations.conversation(status_id, current_uid(request))
    if view is None:
        raise Http404(f"There is no status {status_id}: it may have been deleted.")
    context = {"view": view, "form": form}
    return render(request, "timeline/status.html", context, status=status)


@require_GET
def status_detail(request: HttpRequest, status_id: int) -> HttpResponse:
    """A status, the chain it replies to, its replies and a reply box."""
    return _status_page(request, status_id, StatusForm())


@require_POST
@login_first(lambda status_id: reverse("status", args=[status_id]))
def reply(request: HttpRequest, status_id: int) -> HttpResponse:
    form = StatusForm(request.POST)
    if not form.is_valid():
        return _status_page(request, status_id, form, status=400)
    data = form.cleaned_data

    def answer(uid: int, parent: int) -> None:
        services.post_status(uid, data["message"], location=data["location"], in_reply_to=parent)

    return _react(request, status_id, answer, "Replied.")


def _react(request: HttpRequest, status_id: int, action: Callable, done: str) -> HttpResponse:
    try:
        action(current_uid(request), status_id)
    except ValueError as error:
        return refused(request, error)
    messages.success(request, done)
    return redirect(next_url(request, reverse("status", args=[status_id])))


def _reaction_view(action: Callable, done: str):
    @require_POST
    @login_first(lambda status_id: reverse("status", args=[status_id]))
    def view(request: HttpRequest, status_id: int) -> HttpResponse:
        return _react(request, status_id, action, done)

    return view


repost = _reaction_view(reactions.repost, "Reposted.")
undo_repost = _reaction_view(reactions.undo_repost, "Your repost is undone.")
like = _reaction_view(reactions.like, "Liked.")
unlike = _reaction_view(reactions.unlike, "Like taken back.")


@require_GET
def mentions(request: HttpRequest, login: str) -> HttpResponse:
    """Statuses that @mention a user."""
    person = _other_user(login)
    return statuses_page(
        request,
        lambda number, count, viewer: conversations.mentions_page(
            person["id"], number, count, viewer
        ),
        "timeline/statuses.html",
        {"title": f"Mentions of @{person['login']}", "empty": "Nobody has mentioned them yet."},
    )


@require_GET
def tag(request: HttpRequest, tag: str) -> HttpResponse:
    """Statuses with a #tag, in any case."""
    try:
        name = conversations.check_tag(tag)
    except ValueError as error:
        raise Http404(str(error)) from None
    return statuses_page(
        request,
        lambda number, count, viewer: conversations.tag_page(name, number, count, viewer),
        "timeline/statuses.html",
        {"title": f"#{name}", "empty": "No statuses with this tag."},
    )


@require_GET
@login_required
def likes(request: HttpRequest) -> HttpResponse:
    """The statuses you like: only ever your own likes."""
    uid = current_uid(request)
    return statuses_page(
        request,
        lambda number, count, viewer: reactions.likes_page(uid, number, count),
        "timeline/statuses.html",
        {"title": "Your likes", "lede": "Only you can see this page.", "empty": "No likes yet."},
    )
