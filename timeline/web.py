"""What every timeline page shares: page numbers, where a form goes back to, logging in
before a POST, rendering a page of statuses or of people, and the error page for a
service's refusal. Each room's views.py builds on these."""

import re
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.auth import current_uid
from accounts.records import UserProfile
from accounts.services import get_user_by_login
from socialsite.ratelimit import rate_limited
from socialsite.views import error_page, is_htmx

from .audience.selectors import Blocked
from .feeds.selectors import shown_status
from .lists.selectors import NoSuchList
from .statuses.cards import status_cards
from .statuses.selectors import AlreadyDone, StatusGone
from .statuses.visibility import MEDIA_DISPLAY_FIELD

# At most nine digits: feeds.selectors.LAST_PAGE.
PAGE_NUMBER = re.compile(r"[1-9][0-9]{0,8}")
USERS_PER_PAGE = 50


def page_number(request: HttpRequest) -> int:
    raw = request.GET.get("page", "1")
    if not PAGE_NUMBER.fullmatch(raw):
        raise Http404(f"{raw!r} is not a page number: pages are numbered 1, 2, 3…")
    return int(raw)


def require_page(number: int, shown: list, has_more: bool) -> None:
    """Page 1 may be empty (a new timeline); a later page must show or promise something."""
    if number > 1 and not shown and not has_more:
        raise Http404(f"There is no page {number} here.")


def next_url(request: HttpRequest, default: str) -> str:
    """Where a form asked to go back to (`next`), if it's on this site; else `default`."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return default


def login_first(then: Callable[..., str]):
    """For POST-only views: visitors go to the login page, then to `then(**url_kwargs)`
    (a page they can GET), rather than be bounced back to a POST-only URL.

    The form is read before the view acts: a body that can't be parsed (a broken
    multipart body, too many fields) is a 400 before anything changes, not after the
    action, when the view reads `next`. (CSRF checks read it first too, but only for
    requests they check.)"""

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                messages.info(request, "Log in first.")
                return redirect_to_login(then(**kwargs))
            request.POST.dict()  # raises for a body that can't be parsed: Django's 400
            return view(request, **kwargs)

        return wrapped

    return decorator


def other_user(login: str) -> UserProfile:
    """The profile of the user a URL names, or 404."""
    user = get_user_by_login(login)
    if user is None:
        raise Http404(f"There is no user @{login}.")
    return user


def render_statuses(
    request: HttpRequest, read_page: Callable, template: str, context: dict, status: int = 200
) -> HttpResponse:
    """`template` with the page of statuses `read_page(number, count, viewer)` reads for
    the request's page number (404 past the last), marked with the viewer's likes and
    reposts."""
    number = page_number(request)
    page = read_page(number, settings.STATUSES_PER_PAGE, current_uid(request))
    require_page(number, page.statuses, page.has_older)
    context = {**context, "page": page}
    return render(request, template, context, status=status)


def render_people(
    request: HttpRequest, read_page: Callable, template: str, context: dict
) -> HttpResponse:
    """`template` with the page of profiles `read_page(number, count)` reads (with
    whether there are more) for the request's page number, 404 past the last."""
    number = page_number(request)
    people, has_more = read_page(number, USERS_PER_PAGE)
    require_page(number, people, has_more)
    pages = {"number": number, "has_newer": number > 1, "has_older": has_more}
    return render(request, template, {**context, "people": people, **pages})


def act_on_status(
    request: HttpRequest, status_id: int, action: Callable, done: str
) -> HttpResponse:
    """Runs `action(viewer, status_id)` for a button on a status: back to where the form
    asked (else the status's page) saying `done` (or that it was done already), or the
    error page if it is refused."""
    try:
        action(current_uid(request), status_id)
    except AlreadyDone as error:
        # Done already (in another tab, by a double click): nothing to do, and no error.
        if is_htmx(request):
            return card_answer(request, status_id)
        messages.info(request, f"Nothing to do: {error}")
    except ValueError as error:
        return refused(request, error)
    else:
        if is_htmx(request):
            return card_answer(request, status_id)
        messages.success(request, done)
    return redirect(next_url(request, reverse("status", args=[status_id])))


def status_button(action: Callable, done: str, *, limit: str):
    """The view of a status card's button (like, repost, bookmark, pin...): a POST by
    someone logged in, counted against the rate limit `limit`, that runs
    `action(viewer, status_id)` as act_on_status does."""

    @require_POST
    @login_first(lambda status_id: reverse("status", args=[status_id]))
    @rate_limited(limit)
    def view(request: HttpRequest, status_id: int) -> HttpResponse:
        return act_on_status(request, status_id, action, done)

    return view


def card_answer(request: HttpRequest, status_id: int) -> HttpResponse:
    """An in-place action's answer on a status card: the card its button was on (the
    form's `card`: the status, or a repost showing it) as the viewer now sees it, with
    its counts and marks; the note that it is gone once it is. The card is the kept one
    (timeline.statuses.cards): nothing in it depends on the request."""
    raw, viewer = request.POST.get("card", ""), current_uid(request)
    card_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 20 else status_id
    # Media (mediaweb): the reader's media setting, as their pages apply it.
    fields = getattr(request.user, "session_fields", None) or {}
    media = fields.get(MEDIA_DISPLAY_FIELD) or ""
    shown = [shown_status(card_id, viewer=viewer)]
    return HttpResponse(status_cards(shown, viewer, media=media))


def refused(request: HttpRequest, error: Exception) -> HttpResponse:
    """The error page for a service's refusal: 404 for what is gone, 403 for what is
    someone else's, 400 for the rest."""
    if isinstance(error, StatusGone | NoSuchList):
        return error_page(request, 404, str(error))
    if isinstance(error, PermissionError | Blocked):
        return error_page(request, 403, str(error))
    return error_page(request, 400, str(error))
