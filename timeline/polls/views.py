"""Voting in a poll from its card (the page's `#status-actions` form, or in place)."""

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from socialsite.ratelimit import rate_limited

from ..web import act_on_status, login_first
from . import services


@require_POST
@login_first(lambda poll_id: reverse("status", args=[poll_id]))
@rate_limited("poll_votes")
def vote(request: HttpRequest, poll_id: int) -> HttpResponse:
    """A vote: `choices` (repeated; a card names its own `choices-<id>`, so a page of
    several polls sends each its own), option numbers from 0. A poll's id is its status's."""
    choices = request.POST.getlist(f"choices-{poll_id}") or request.POST.getlist("choices")

    def cast(uid: int, status_id: int) -> None:
        services.vote(uid, status_id, choices)

    return act_on_status(request, poll_id, cast, "Voted.")
