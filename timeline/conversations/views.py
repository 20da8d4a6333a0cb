"""The conversation pages (a status with the chain it replies to and its replies, the
mentions and tag timelines) and the reply box."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid
from socialsite.ratelimit import rate_limited

from ..forms import StatusForm
from ..posting.services import post_status
from ..statuses.selectors import with_authors
from ..web import act_on_status, login_first, other_user, render_statuses
from . import selectors


def _status_page(request: HttpRequest, status_id: int, form: StatusForm, status: int = 200):
    view = selectors.conversation(status_id, current_uid(request))
    if view is None:
        raise Http404(f"There is no status {status_id}: it may have been deleted.")
    if not form.is_bound and request.user.is_authenticated:
        form.initial["message"] = selectors.reply_mentions(view.status, request.user.username)
    # The page renders three runs of cards: their authors read together, once.
    with_authors([*view.ancestors, view.repost or view.status, *view.replies])
    context = {"view": view, "form": form}
    return render(request, "timeline/status.html", context, status=status)


@require_GET
def status_detail(request: HttpRequest, status_id: int) -> HttpResponse:
    """A status, the chain it replies to, its replies and a reply box."""
    return _status_page(request, status_id, StatusForm())


@require_POST
@login_first(lambda status_id: reverse("status", args=[status_id]))
@rate_limited("posts")
def reply(request: HttpRequest, status_id: int) -> HttpResponse:
    form = StatusForm(request.POST)
    if not form.is_valid():
        return _status_page(request, status_id, form, status=400)
    data = form.cleaned_data

    def answer(uid: int, parent: int) -> None:
        post_status(uid, data["message"], location=data["location"], in_reply_to=parent)

    return act_on_status(request, status_id, answer, "Replied.")


@require_GET
def mentions(request: HttpRequest, login: str) -> HttpResponse:
    """Statuses that @mention a user."""
    person = other_user(login)
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.mentions_page(person["id"], number, count, viewer),
        "timeline/statuses.html",
        {"title": f"Mentions of @{person['login']}", "empty": "Nobody has mentioned them yet."},
    )


@require_GET
def tag(request: HttpRequest, tag: str) -> HttpResponse:
    """Statuses with a #tag, in any case."""
    try:
        name = selectors.check_tag(tag)
    except ValueError as error:
        raise Http404(str(error)) from None
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.tag_page(name, number, count, viewer),
        "timeline/statuses.html",
        {"title": f"#{name}", "empty": "No statuses with this tag."},
    )
