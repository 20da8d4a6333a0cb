"""The site's look as each user chose it in settings: light, dark, or following the
system's (the default). Kept in their profile and read with every signed-in request's
session check (services.read_with_session), so no page pays a round trip for it."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from socialsite.ratelimit import rate_limited
from socialsite.redis import get_redis

from . import keys
from .auth import logged_in_uid

THEME_FIELD = "theme"
SYSTEM, LIGHT, DARK = "system", "light", "dark"
THEMES = {SYSTEM: "As the system", LIGHT: "Light", DARK: "Dark"}


class ThemeForm(forms.Form):
    theme = forms.ChoiceField(choices=list(THEMES.items()), widget=forms.RadioSelect)


def set_theme(uid: int, theme: str) -> None:
    """Keeps `theme` (one of THEMES) as `uid`'s; the system's is kept as no choice."""
    if theme not in THEMES:
        raise ValueError(f"A theme is one of {', '.join(THEMES)}, not {theme!r}.")
    if theme == SYSTEM:
        get_redis().hdel(keys.user_key(uid), THEME_FIELD)
    else:
        get_redis().hset(keys.user_key(uid), THEME_FIELD, theme)


def chosen_theme(request: HttpRequest) -> str:
    """The theme the request's user chose ("light" or "dark"), "" to follow the system."""
    theme = getattr(getattr(request, "user", None), "session_fields", {}).get(THEME_FIELD)
    return theme if theme in (LIGHT, DARK) else ""


@require_POST
@login_required
@rate_limited("settings_changes")
def appearance(request: HttpRequest) -> HttpResponse:
    """Saves the theme chosen in settings; back to settings."""
    form = ThemeForm(request.POST)
    if form.is_valid():
        set_theme(logged_in_uid(request), form.cleaned_data["theme"])
        messages.success(request, f"Appearance: {THEMES[form.cleaned_data['theme']].lower()}.")
    else:
        messages.error(request, "Pick light, dark or as the system.")
    return redirect(reverse("accounts:settings") + "#settings-appearance")
