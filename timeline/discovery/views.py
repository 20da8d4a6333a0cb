"""Dismissing a suggestion of whom to follow."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid

from ..web import login_first, next_url, other_user
from . import suggestions


@require_POST
@login_first(lambda login: reverse("home"))
def dismiss_suggestion(request: HttpRequest, login: str) -> HttpResponse:
    """Never suggests @login again."""
    other = other_user(login)
    suggestions.dismiss(logged_in_uid(request), other["id"])
    messages.info(request, f"We won't suggest @{other['login']} again.")
    return redirect(next_url(request, reverse("home")))
