"""Quotes' pages: the quote composer (a status's card above a post box), the quotes of
a status (with a button for its author to detach it from each), detaching, and the
settings page's quote policy."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid, logged_in_uid
from socialsite.ratelimit import rate_limited
from socialsite.redis import get_redis

from ..feeds.selectors import original
from ..forms import StatusForm, blank_status_form
from ..quotes import rules
from ..quotes import services as quotes
from ..statuses.selectors import AlreadyDone, StatusGone
from ..web import login_first, refused, render_statuses
from . import selectors


@require_GET
@login_required
def quote(request: HttpRequest, status_id: int) -> HttpResponse:
    """The quote composer: the status to quote and a box for your words; 404 if it is
    gone or hidden from you, 403 if its policy doesn't let you quote it."""
    return render_quote(request, status_id, blank_status_form())


def render_quote(
    request: HttpRequest, status_id: int | str, form: StatusForm, status: int = 200
) -> HttpResponse:
    uid = logged_in_uid(request)
    try:
        quoted = original(status_id, viewer=uid)
        quotes.check_quote(get_redis(), uid, quoted["id"])
    except quotes.QuoteRefused as error:
        return refused(request, PermissionError(str(error)))
    except StatusGone as error:
        return refused(request, error)
    context = {"quoted": quoted, "form": form, "quote_id": quoted["id"]}
    return render(request, "timeline/quote.html", context, status=status)


@require_GET
def status_quotes(request: HttpRequest, status_id: int) -> HttpResponse:
    """The quotes of a status; its author sees a button to detach it from each."""
    viewer = current_uid(request)
    try:
        quoted = original(status_id, viewer=viewer)
    except StatusGone as error:
        return refused(request, error)
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.quotes_page(quoted["id"], number, count, viewer),
        "timeline/quotes.html",
        {"quoted": quoted, "title": f"Quotes of @{quoted['login']}'s status"},
    )


@require_POST
@login_first(lambda status_id, quoting_id: reverse("status_quotes", args=[status_id]))
@rate_limited("reactions")
def revoke_quote(request: HttpRequest, status_id: int, quoting_id: int) -> HttpResponse:
    """Detaches the viewer's status from a quote of it: back to its quotes."""
    try:
        quotes.revoke(logged_in_uid(request), status_id, quoting_id)
    except AlreadyDone as error:
        messages.info(request, f"Nothing to do: {error}")
    except (ValueError, PermissionError) as error:
        return refused(request, error)
    else:
        messages.success(request, "Your status is removed from that quote.")
    return redirect(reverse("status_quotes", args=[status_id]))


def quote_panel(uid: int) -> dict:
    """What the settings page's quote policy (timeline/_quote_settings.html) shows: a
    Jinja2 global, so the settings view needn't know about it."""
    return {"policy": quotes.default_policy(uid), "choices": rules.POLICY_LABELS}


@require_POST
@login_required
@rate_limited("safety")
def quote_policy(request: HttpRequest) -> HttpResponse:
    """The settings page's quote policy: who may quote your new statuses."""
    try:
        quotes.set_default_policy(logged_in_uid(request), request.POST.get("quote_policy", ""))
    except ValueError as error:
        return refused(request, error)
    messages.success(request, "Your quote policy is saved: it applies to your new statuses.")
    return redirect(reverse("accounts:settings") + "#settings-privacy")
