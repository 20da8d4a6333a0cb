"""The repost and like buttons, and your likes page."""

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import logged_in_uid
from socialsite.ratelimit import rate_limited

from ..web import act_on_status, login_first, render_statuses
from . import selectors, services


def _reaction_view(action: Callable, done: str):
    @require_POST
    @login_first(lambda status_id: reverse("status", args=[status_id]))
    @rate_limited("reactions")
    def view(request: HttpRequest, status_id: int) -> HttpResponse:
        return act_on_status(request, status_id, action, done)

    return view


repost = _reaction_view(services.repost, "Reposted.")
undo_repost = _reaction_view(services.undo_repost, "Your repost is undone.")
like = _reaction_view(services.like, "Liked.")
unlike = _reaction_view(services.unlike, "Like taken back.")


@require_GET
@login_required
def likes(request: HttpRequest) -> HttpResponse:
    """The statuses you like: only ever your own likes."""
    uid = logged_in_uid(request)
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.likes_page(uid, number, count),
        "timeline/statuses.html",
        {"title": "Your likes", "lede": "Only you can see this page.", "empty": "No likes yet."},
    )
