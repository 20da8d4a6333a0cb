"""Reporting a status or an account."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid
from socialsite.ratelimit import rate_limited

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
    except ValueError as error:
        return refused(request, error)
    messages.success(request, THANKS)
    return redirect(next_url(request, reverse("status", args=[status_id])))


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
    except ValueError as error:
        return refused(request, error)
    messages.success(request, THANKS)
    return redirect(next_url(request, reverse("profile", args=[other["login"]])))
