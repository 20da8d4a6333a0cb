"""Your notifications page."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import logged_in_uid
from socialsite.views import error_page

from ..statuses.selectors import with_authors
from ..web import login_first, page_number, require_page
from . import selectors, services

FILTERS = ("all", "mentions")


@require_GET
@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    """Your notifications, newest first and grouped (?show=mentions: mentions and replies
    only); opening the page marks them all read."""
    show = request.GET.get("show", "all")
    if show not in FILTERS:
        return error_page(request, 400, f"Show {' or '.join(FILTERS)} notifications.")
    uid = logged_in_uid(request)
    number = page_number(request)
    unread = services.mark_read(uid)
    page = selectors.notifications_page(
        uid, number, settings.NOTIFICATIONS_PER_PAGE, mentions_only=show == "mentions"
    )
    require_page(number, page.notifications, page.has_older)
    # Each item's card is rendered alone: their authors read together, once.
    with_authors([item.status for item in page.notifications if item.status])
    context = {"page": page, "show": show, "filters": FILTERS, "unread": unread}
    return render(request, "timeline/notifications.html", context)


@require_POST
@login_first(lambda: reverse("notifications"))
def mark_read(request: HttpRequest) -> HttpResponse:
    """Marks your notifications read (the open page does as they arrive): 204."""
    services.mark_read(logged_in_uid(request))
    return HttpResponse(status=204)
