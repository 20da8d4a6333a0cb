"""Stream keys on the settings page: list, create (shown once), revoke."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid
from socialsite.ratelimit import rate_limited

from . import services
from .forms import StreamKeyForm


def stream_keys_panel(uid: int) -> dict:
    """What the settings page's stream keys panel (streaming/_stream_keys.html) shows: a
    Jinja2 global the panel calls, so the settings view needn't know about stream keys."""
    return {
        "stream_keys": services.list_stream_keys(uid),
        "form": StreamKeyForm(),
        "streams_per_key": settings.STREAM_CONNECTIONS_PER_KEY,
    }


@require_POST
@login_required
@never_cache
@rate_limited("stream_keys")
def create_key(request: HttpRequest) -> HttpResponse:
    """Makes a stream key and shows it, this once (never cached: it is a secret)."""
    form = StreamKeyForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            key = services.create_stream_key(logged_in_uid(request), name)
        except ValueError as error:
            form.add_error("name", str(error))
        else:
            return render(request, "streaming/key_created.html", {"key": key, "name": name})
    for errors in form.errors.values():
        messages.error(request, " ".join(map(str, errors)))
    return redirect(reverse("accounts:settings") + "#settings-apps")


@require_POST
@login_required
@rate_limited("settings_changes")
def revoke_key(request: HttpRequest, key_id: str) -> HttpResponse:
    if services.revoke_stream_key(logged_in_uid(request), key_id):
        messages.success(request, "The stream key is revoked; streams using it are ending.")
    else:
        messages.error(request, "You have no such stream key.")
    return redirect(reverse("accounts:settings") + "#settings-apps")
