"""The repost and like buttons, and your likes page."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from accounts.auth import logged_in_uid

from ..web import render_statuses, status_button
from . import selectors, services

repost = status_button(services.repost, "Reposted.", limit="reactions")
undo_repost = status_button(services.undo_repost, "Your repost is undone.", limit="reactions")
like = status_button(services.like, "Liked.", limit="reactions")
unlike = status_button(services.unlike, "Like taken back.", limit="reactions")


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
