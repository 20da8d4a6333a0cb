"""The posting settings: the visibility a user's posts get unless they pick another
(followers-only for a private account until they choose), and whether cards show
content warnings open. Kept in their profile hash and read with every signed-in
request's session check (accounts' read_with_session), so the composer and the cards
pay no round trip for them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid
from accounts.keys import user_key
from socialsite.ratelimit import rate_limited
from socialsite.redis import get_redis

from .. import keys
from ..statuses import visibility
from ..statuses.visibility import (
    DEFAULT_VISIBILITY_FIELD,
    EXPAND_WARNINGS_FIELD,
    MEDIA_DISPLAY_CHOICES,
    MEDIA_DISPLAY_FIELD,
)

# What read_with_session reads for the composer and the cards (timeline.apps).
SESSION_FIELDS = (
    DEFAULT_VISIBILITY_FIELD,
    EXPAND_WARNINGS_FIELD,
    keys.PRIVATE_FIELD,
    MEDIA_DISPLAY_FIELD,
)


def set_posting_preferences(
    uid: int, *, default_visibility: str, expand_warnings: bool, media_display: str | None = None
) -> None:
    """Keeps `uid`'s default visibility (ValueError for an unknown one), whether
    warnings show open and, if given, how media shows (`media_display`, one of
    MEDIA_DISPLAY_CHOICES: ValueError otherwise); the defaults (none chosen, closed,
    "default") are kept as no field."""
    visibility.check_visibility(default_visibility)
    if media_display is not None and media_display not in MEDIA_DISPLAY_CHOICES:
        raise ValueError("Choose how media shows: " + ", ".join(MEDIA_DISPLAY_CHOICES) + ".")
    pipe = get_redis().pipeline(transaction=False)
    if media_display in ("show_all", "hide_all"):
        pipe.hset(user_key(uid), MEDIA_DISPLAY_FIELD, media_display)
    elif media_display is not None:
        pipe.hdel(user_key(uid), MEDIA_DISPLAY_FIELD)
    pipe.hset(user_key(uid), DEFAULT_VISIBILITY_FIELD, default_visibility)
    if expand_warnings:
        pipe.hset(user_key(uid), EXPAND_WARNINGS_FIELD, "1")
    else:
        pipe.hdel(user_key(uid), EXPAND_WARNINGS_FIELD)
    pipe.execute()


def set_default_visibility(uid: int, default_visibility: str) -> None:
    """Keeps `uid`'s default visibility alone (ValueError for an unknown one)."""
    visibility.check_visibility(default_visibility)
    get_redis().hset(user_key(uid), DEFAULT_VISIBILITY_FIELD, default_visibility)


def default_visibility_of(uid: int) -> str:
    """The visibility `uid`'s posts get unless they pick one (1 round trip)."""
    chosen, private = get_redis().hmget(user_key(uid), DEFAULT_VISIBILITY_FIELD, keys.PRIVATE_FIELD)
    return visibility.default_visibility(chosen, private_account=private == "1")


def posting_defaults_of(uid: int) -> tuple[str, bool]:
    """The visibility `uid`'s posts get unless they pick one, and whether they have
    warnings open by themselves (1 round trip): the client API's preferences."""
    chosen, private, expand = get_redis().hmget(
        user_key(uid), DEFAULT_VISIBILITY_FIELD, keys.PRIVATE_FIELD, EXPAND_WARNINGS_FIELD
    )
    shown = visibility.default_visibility(chosen, private_account=private == "1")
    return shown, expand == "1"


def session_fields(request: HttpRequest) -> dict:
    """The profile fields read with the request's session check (none for a visitor)."""
    return getattr(getattr(request, "user", None), "session_fields", None) or {}


def chosen_visibility(request: HttpRequest) -> str:
    """The visibility the composer starts at for the request's user: their setting, else
    followers-only for a private account, else public."""
    fields = session_fields(request)
    return visibility.default_visibility(
        fields.get(DEFAULT_VISIBILITY_FIELD), private_account=fields.get(keys.PRIVATE_FIELD) == "1"
    )


def expands_warnings(request: HttpRequest | None) -> bool:
    """Whether the request's user chose to see content warnings open."""
    return request is not None and session_fields(request).get(EXPAND_WARNINGS_FIELD) == "1"


def posting_panel(request: HttpRequest) -> dict:
    """What the settings page's posting section (timeline/_posting_settings.html) shows."""
    return {
        "default_visibility": chosen_visibility(request),
        "expand_warnings": expands_warnings(request),
        "choices": list(visibility.LABELS.items()),
        "media_display": session_fields(request).get(MEDIA_DISPLAY_FIELD) or "default",
        "media_choices": list(MEDIA_DISPLAY_CHOICES.items()),
    }


@require_POST
@login_required
@rate_limited("settings_changes")
def posting_settings(request: HttpRequest) -> HttpResponse:
    """Saves the posting settings; back to settings."""
    chosen = request.POST.get("default_visibility", "")
    try:
        set_posting_preferences(
            logged_in_uid(request),
            default_visibility=chosen,
            expand_warnings=request.POST.get("expand_warnings") in ("1", "on"),
            media_display=request.POST.get("media_display", "default"),
        )
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Your posting settings are saved.")
    return redirect(reverse("accounts:settings") + "#settings-privacy")
