"""Follow requests, blocks, mutes, and the settings page's privacy section."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid, logged_in_uid
from accounts.services import get_user
from socialsite.ratelimit import rate_limited
from socialsite.views import is_htmx

from ..audience.selectors import relations
from ..web import login_first, next_url, other_user, refused, render_people
from . import people, services


def safety_panel(uid: int) -> dict:
    """What the settings page's privacy section (timeline/_safety_settings.html) shows:
    a Jinja2 global, so the settings view needn't know about it."""
    user = get_user(uid)
    return {
        "private": bool(user and user["private"]),
        "muted_words": "\n".join(services.muted_words(uid)),
        "phrases_max": services.MUTED_PHRASES_MAX,
    }


def _people_page(request: HttpRequest, read, title: str, action: str, label: str) -> HttpResponse:
    uid = current_uid(request)
    return render_people(
        request,
        lambda number, count: read(uid, number, count),
        "timeline/safety_people.html",
        {"title": title, "action": action, "label": label},
    )


@require_GET
@login_required
def follow_requests(request: HttpRequest) -> HttpResponse:
    return _people_page(
        request, people.follow_requests_page, "Requests to follow you", "requests", ""
    )


@require_GET
@login_required
def blocks(request: HttpRequest) -> HttpResponse:
    return _people_page(request, people.blocks_page, "People you block", "unblock", "Unblock")


@require_GET
@login_required
def mutes(request: HttpRequest) -> HttpResponse:
    return _people_page(request, people.mutes_page, "People you mute", "unmute", "Unmute")


def _act(
    request: HttpRequest,
    login: str,
    action,
    done: str | tuple[str, str],
    default: str,
) -> HttpResponse:
    """Runs `action(viewer, other uid)` for the user `login` names: back to `next` (else
    `default`) saying `done` (formatted with their login), or the error page. In place
    (htmx), the profile's safety box again if that is what asked, else a note saying
    `done` where the button was."""
    other = other_user(login)
    try:
        result = action(current_uid(request), other["id"])
    except ValueError as error:
        return refused(request, error)
    if isinstance(done, tuple):
        done = done[0] if result is not False else done[1]
    news = done.format(login=other["login"])
    if is_htmx(request) and request.headers.get("HX-Target") == "profile-safety":
        # In place: the profile's safety box as it now stands (Unblock where Block was).
        context = {
            "person": other,
            "relation": relations(logged_in_uid(request), [other["id"]])[0],
            "news": news,
        }
        return render(request, "timeline/_safety_controls.html", context)
    if is_htmx(request):
        # In place elsewhere (a request approved, someone unblocked from the list): a
        # note where the button was.
        return HttpResponse(format_html('<p class="action-done" role="status">{}</p>', news))
    messages.success(request, news)
    return redirect(next_url(request, default))


def _profile(login: str) -> str:
    return reverse("profile", args=[login])


@require_POST
@login_first(lambda login: reverse("follow_requests"))
@rate_limited("follows")
def approve(request: HttpRequest, login: str) -> HttpResponse:
    return _act(
        request,
        login,
        services.approve_request,
        "@{login} now follows you.",
        reverse("follow_requests"),
    )


@require_POST
@login_first(lambda login: reverse("follow_requests"))
@rate_limited("follows")
def reject(request: HttpRequest, login: str) -> HttpResponse:
    return _act(
        request,
        login,
        services.reject_request,
        "You turned down @{login}'s request.",
        reverse("follow_requests"),
    )


@require_POST
@login_first(_profile)
@rate_limited("follows")
def remove_follower(request: HttpRequest, login: str) -> HttpResponse:
    return _act(
        request,
        login,
        services.remove_follower,
        ("@{login} no longer follows you.", "@{login} wasn't following you."),
        _profile(login),
    )


@require_POST
@login_first(_profile)
@rate_limited("safety")
def block(request: HttpRequest, login: str) -> HttpResponse:
    return _act(
        request,
        login,
        services.block,
        ("You block @{login}.", "You already block @{login}."),
        _profile(login),
    )


@require_POST
@login_first(_profile)
@rate_limited("safety")
def unblock(request: HttpRequest, login: str) -> HttpResponse:
    return _act(
        request,
        login,
        services.unblock,
        ("You no longer block @{login}.", "You weren't blocking @{login}."),
        _profile(login),
    )


@require_POST
@login_first(_profile)
@rate_limited("safety")
def mute(request: HttpRequest, login: str) -> HttpResponse:
    raw = request.POST.get("duration", "0")
    duration = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else -1
    return _act(
        request,
        login,
        lambda uid, other: services.mute(uid, other, duration),
        "You mute @{login}.",
        _profile(login),
    )


@require_POST
@login_first(_profile)
@rate_limited("safety")
def unmute(request: HttpRequest, login: str) -> HttpResponse:
    return _act(
        request,
        login,
        services.unmute,
        ("You no longer mute @{login}.", "You weren't muting @{login}."),
        _profile(login),
    )


@require_POST
@login_required
@rate_limited("safety")
def privacy(request: HttpRequest) -> HttpResponse:
    """The settings page's privacy section: the private switch and the muted words."""
    uid = logged_in_uid(request)
    private = request.POST.get("private") == "on"
    try:
        services.set_muted_words(uid, request.POST.get("muted_words", ""))
    except ValueError as error:
        return refused(request, error)
    services.set_private(uid, private)
    if private:
        messages.success(
            request, "Your account is private: only followers you approve see your statuses."
        )
    else:
        messages.success(request, "Your account is public.")
    return redirect(reverse("accounts:settings") + "#settings-privacy")
