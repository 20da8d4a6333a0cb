"""The conversation pages (a status with the chain it replies to, its replies and the
reply box: posting.views.reply answers it), the mentions and tag timelines."""

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.auth import current_uid

from .. import keys
from ..forms import StatusForm
from ..statuses import visibility
from ..statuses.selectors import with_authors
from ..web import other_user, render_statuses
from . import selectors


def render_status_page(
    request: HttpRequest, status_id: int, form: StatusForm, status: int = 200
) -> HttpResponse:
    """A status's conversation page with the reply box `form` (bound: shown again with
    its errors)."""
    view = selectors.conversation(status_id, current_uid(request))
    if view is None:
        raise Http404(f"There is no status {status_id}: it may have been deleted.")
    if not form.is_bound and request.user.is_authenticated:
        form.initial["message"] = selectors.reply_mentions(view.status, request.user.username)
        # The reply box starts at the parent's visibility where it is narrower (vis).
        fields = getattr(request.user, "session_fields", None) or {}
        default = visibility.default_visibility(
            fields.get(visibility.DEFAULT_VISIBILITY_FIELD),
            private_account=fields.get(keys.PRIVATE_FIELD) == "1",
        )
        form.initial["visibility"] = visibility.narrowest(
            default, visibility.visibility_of(view.status)
        )
    # The page renders three runs of cards: their authors read together, once.
    with_authors([*view.ancestors, view.repost or view.status, *view.replies])
    context = {"view": view, "form": form}
    return render(request, "timeline/status.html", context, status=status)


@require_GET
def status_detail(request: HttpRequest, status_id: int) -> HttpResponse:
    """A status, the chain it replies to, its replies and a reply box."""
    return render_status_page(request, status_id, StatusForm())


@require_GET
def mentions(request: HttpRequest, login: str) -> HttpResponse:
    """Statuses that @mention a user."""
    person = other_user(login)
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.mentions_page(person["id"], number, count, viewer),
        "timeline/statuses.html",
        {
            "title": f"Mentions of @{person['login']}",
            "empty": "Nobody has mentioned them yet.",
            "live_query": urlencode({"timeline": "mentions", "login": person["login"]}),
        },
    )
