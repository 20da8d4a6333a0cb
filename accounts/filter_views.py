"""The settings page's filters (accounts.filters): each filter shown with a form to
change it or delete it, and one to make another. Forms POST and redirect back, so they
work without JavaScript; a refusal is the error page saying what is wrong."""

from datetime import UTC, datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from socialsite.ratelimit import rate_limited
from socialsite.views import error_page

from . import filters
from .auth import logged_in_uid

# What the form offers for a filter's end (seconds; "" never).
EXPIRY_CHOICES = [
    ("", "Never"),
    ("3600", "1 hour"),
    ("86400", "1 day"),
    ("604800", "7 days"),
    ("2592000", "30 days"),
]
CONTEXT_LABELS = {
    "home": "Home and lists",
    "notifications": "Notifications",
    "public": "Public timelines",
    "thread": "Conversations",
    "account": "Profiles",
}


def ends_in_words(ends: float | None) -> str:
    if ends is None:
        return "never ends"
    moment = datetime.fromtimestamp(float(ends), tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"ends {moment}"


def filters_panel(uid: int) -> dict:
    """What the settings page's filters section (accounts/_filters_settings.html) shows."""
    shown = []
    for found in filters.list_filters(uid):
        shown.append(
            {
                **found,
                "keywords_text": "\n".join(k["keyword"] for k in found["keywords"]),
                "whole_words": all(k["whole_word"] for k in found["keywords"]),
                "active": filters.is_active(found),
                "ends": ends_in_words(found.get("expires_at")),
            }
        )
    return {
        "filters": shown,
        "contexts": CONTEXT_LABELS,
        "expiry_choices": EXPIRY_CHOICES,
        "keywords_max": filters.KEYWORDS_MAX,
    }


def _back() -> HttpResponse:
    return redirect(reverse("accounts:settings") + "#settings-privacy")


def _form_keywords(request: HttpRequest) -> list[tuple[str, bool]]:
    whole = request.POST.get("whole_word") == "on"
    lines = (line.strip() for line in request.POST.get("keywords", "").splitlines())
    phrases = list(dict.fromkeys(line for line in lines if line))
    if len(phrases) > filters.KEYWORDS_MAX:
        raise ValueError(f"A filter has at most {filters.KEYWORDS_MAX} keywords.")
    return [(phrase, whole) for phrase in phrases]


def _form_settings(request: HttpRequest) -> dict[str, object]:
    return {
        "title": request.POST.get("title", ""),
        "context": request.POST.getlist("context"),
        "filter_action": request.POST.get("filter_action", "warn"),
        "expires_in": request.POST.get("expires_in") or None,
    }


@require_POST
@login_required
@rate_limited("filter_changes")
def create(request: HttpRequest) -> HttpResponse:
    try:
        made = filters.create_filter(
            logged_in_uid(request), **_form_settings(request), keywords=_form_keywords(request)
        )
    except ValueError as error:
        return error_page(request, 400, str(error))
    messages.success(request, f"Filter “{made['title']}” saved.")
    return _back()


@require_POST
@login_required
@rate_limited("filter_changes")
def update(request: HttpRequest, filter_id: int) -> HttpResponse:
    uid = logged_in_uid(request)
    try:
        found = filters.get_filter(uid, filter_id)
        wanted = _form_keywords(request)
        settings = _form_settings(request)
        if request.POST.get("expires_in") == "keep":
            settings.pop("expires_in")
        have = {k["keyword"]: k for k in found["keywords"]}
        asked = dict(wanted)
        attributes: list[dict] = [
            {"id": k["id"], "_destroy": True} for word, k in have.items() if word not in asked
        ]
        attributes += [
            {"id": have[word]["id"], "whole_word": whole}
            if word in have
            else {"keyword": word, "whole_word": whole}
            for word, whole in wanted
        ]
        filters.update_filter(uid, filter_id, changes=settings, keywords_attributes=attributes)
    except filters.NoSuchFilter:
        return error_page(request, 404, "You have no such filter.")
    except ValueError as error:
        return error_page(request, 400, str(error))
    messages.success(request, "Filter saved.")
    return _back()


@require_POST
@login_required
@rate_limited("filter_changes")
def delete(request: HttpRequest, filter_id: int) -> HttpResponse:
    try:
        filters.delete_filter(logged_in_uid(request), filter_id)
    except filters.NoSuchFilter:
        return error_page(request, 404, "You have no such filter.")
    messages.success(request, "Filter deleted.")
    return _back()
