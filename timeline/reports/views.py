"""Reporting a status or an account."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid
from socialsite.ratelimit import rate_limited
from socialsite.views import is_htmx

from ..statuses.selectors import AlreadyDone
from ..web import login_first, next_url, other_user, refused
from . import services

THANKS = "Thanks: the moderators will look at your report."


@require_POST
@login_first(lambda status_id: reverse("status", args=[status_id]))
@rate_limited("reports")
def report_status(request: HttpRequest, status_id: int) -> HttpResponse:
    try:
        services.report_status(
            logged_in_uid(request),
            status_id,
            request.POST.get("reason", ""),
            request.POST.get("comment", ""),
        )
    except AlreadyDone as error:
        return _filed(request, str(error), reverse("status", args=[status_id]), info=True)
    except ValueError as error:
        return refused(request, error)
    return _filed(request, THANKS, reverse("status", args=[status_id]))


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
@rate_limited("reports")
def report_user(request: HttpRequest, login: str) -> HttpResponse:
    other = other_user(login)
    try:
        services.report_user(
            logged_in_uid(request),
            other["id"],
            request.POST.get("reason", ""),
            request.POST.get("comment", ""),
        )
    except AlreadyDone as error:
        return _filed(request, str(error), reverse("profile", args=[other["login"]]), info=True)
    except ValueError as error:
        return refused(request, error)
    return _filed(request, THANKS, reverse("profile", args=[other["login"]]))


def _filed(request: HttpRequest, news: str, default: str, *, info: bool = False) -> HttpResponse:
    """A report filed, or one filed already (no error: the moderators have it): in place,
    the report form gives way to `news`; else back to the page, saying it."""
    if is_htmx(request):
        return HttpResponse(format_html('<p class="report-done" role="status">{}</p>', news))
    (messages.info if info else messages.success)(request, news)
    return redirect(next_url(request, default))
