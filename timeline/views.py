import re
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid
from accounts.services import get_user_by_login
from socialsite.views import error_page

from . import lists, reactions, services
from .forms import StatusForm

# At most nine digits: services.LAST_PAGE.
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
    (a page they can GET), rather than be bounced back to a POST-only URL."""

    def decorator(view):
        @wraps(view)
        def wrapped(request: HttpRequest, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated:
                messages.info(request, "Log in first.")
                return redirect_to_login(then(**kwargs))
            return view(request, **kwargs)

        return wrapped

    return decorator


def statuses_page(
    request: HttpRequest, read_page: Callable, template: str, context: dict, status: int = 200
) -> HttpResponse:
    """`template` with the page of statuses `read_page(number, count, viewer)` reads for
    the request's page number (404 past the last), marked with the viewer's likes and
    reposts."""
    number = page_number(request)
    page = read_page(number, settings.STATUSES_PER_PAGE, current_uid(request))
    require_page(number, page.statuses, page.has_older)
    return render(request, template, {**context, "page": page}, status=status)


def refused(request: HttpRequest, error: Exception) -> HttpResponse:
    """The error page for a service's refusal: 404 for what is gone, 403 for what is
    someone else's, 400 for the rest."""
    if isinstance(error, reactions.StatusGone | lists.NoSuchList):
        return error_page(request, 404, str(error))
    if isinstance(error, PermissionError):
        return error_page(request, 403, str(error))
    return error_page(request, 400, str(error))


def _home(request: HttpRequest, uid: int, form: StatusForm, status: int = 200) -> HttpResponse:
    number = page_number(request)
    home = services.home_page(uid, number, settings.STATUSES_PER_PAGE)
    if home is None:
        raise Http404("Your profile is gone.")
    require_page(number, home.page.statuses, home.page.has_older)
    context = {"form": form, "page": home.page, "person": home.user}
    return render(request, "timeline/home.html", context, status=status)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Your home timeline and the post box; for visitors, a welcome and the global timeline."""
    uid = current_uid(request)
    if uid is not None:
        return _home(request, uid, StatusForm())
    return _global(request, "timeline/welcome.html")


def _global(request: HttpRequest, template: str) -> HttpResponse:
    return statuses_page(request, services.global_timeline_page, template, {})


@require_GET
def global_timeline(request: HttpRequest) -> HttpResponse:
    return _global(request, "timeline/global.html")


@require_POST
@login_first(lambda: reverse("home"))
def post_status(request: HttpRequest) -> HttpResponse:
    uid = current_uid(request)
    form = StatusForm(request.POST)
    if not form.is_valid():
        return _home(request, uid, form, status=400)
    services.post_status(uid, form.cleaned_data["message"], location=form.cleaned_data["location"])
    messages.success(request, "Posted.")
    return redirect(next_url(request, reverse("home")))


@require_GET
@login_required
def status_card(request: HttpRequest, status_id: int) -> HttpResponse:
    """One status's card as the viewer's timelines show it, and nothing else: the live
    home timeline fetches new statuses here, as a whole page would show (and so use up)
    the messages waiting for the viewer's next page, such as "Posted."."""
    status = services.shown_status(status_id, viewer=current_uid(request))
    if status is None:
        # Plain text, not the 404 page: that page shows (and uses up) the messages too.
        return HttpResponseNotFound(
            f"There is no status {status_id}: it may have been deleted.",
            content_type="text/plain; charset=utf-8",
        )
    return render(request, "timeline/status_card.html", {"status": status})


@require_POST
@login_first(lambda status_id: reverse("status", args=[status_id]))
def delete_status(request: HttpRequest, status_id: int) -> HttpResponse:
    deleted = services.delete_status(current_uid(request), status_id)
    if deleted is None:
        raise Http404(f"There is no status {status_id}: it may have been deleted already.")
    if not deleted:
        raise PermissionDenied("You can only delete your own statuses.")
    messages.success(request, "Your status is deleted.")
    back = next_url(request, reverse("home"))
    return redirect(reverse("home") if back == reverse("status", args=[status_id]) else back)


@require_GET
def profile(request: HttpRequest, login: str) -> HttpResponse:
    """A user's statuses, counts, follow button and the followers you have in common."""
    number = page_number(request)
    view = services.profile_page(login, current_uid(request), number, settings.STATUSES_PER_PAGE)
    if view is None:
        raise Http404(f"There is no user @{login}.")
    require_page(number, view.page.statuses, view.page.has_older)
    return render(request, "timeline/profile.html", {"view": view, "page": view.page})


def _other_user(login: str) -> dict:
    user = get_user_by_login(login)
    if user is None:
        raise Http404(f"There is no user @{login}.")
    return user


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
def follow(request: HttpRequest, login: str) -> HttpResponse:
    other = _other_user(login)
    try:
        followed = services.follow_user(current_uid(request), other["id"])
    except ValueError as error:
        return refused(request, error)
    if followed:
        messages.success(request, f"You now follow @{other['login']}.")
    else:
        messages.info(request, f"You already follow @{other['login']}.")
    return redirect(next_url(request, reverse("profile", args=[other["login"]])))


@require_POST
@login_first(lambda login: reverse("profile", args=[login]))
def unfollow(request: HttpRequest, login: str) -> HttpResponse:
    other = _other_user(login)
    if services.unfollow_user(current_uid(request), other["id"]):
        messages.success(request, f"You no longer follow @{other['login']}.")
    else:
        messages.info(request, f"You weren't following @{other['login']}.")
    return redirect(next_url(request, reverse("profile", args=[other["login"]])))


def people_page(
    request: HttpRequest, read_page: Callable, template: str, context: dict
) -> HttpResponse:
    """`template` with the page of profiles `read_page(number, count)` reads (with
    whether there are more) for the request's page number, 404 past the last."""
    number = page_number(request)
    people, has_more = read_page(number, USERS_PER_PAGE)
    require_page(number, people, has_more)
    pages = {"number": number, "has_newer": number > 1, "has_older": has_more}
    return render(request, template, {**context, "people": people, **pages})


def _people(request: HttpRequest, login: str, list_page, title: str) -> HttpResponse:
    person = _other_user(login)
    return people_page(
        request,
        lambda number, count: list_page(person["id"], number, count),
        "timeline/people.html",
        {"title": title.format(login=person["login"]), "person": person},
    )


@require_GET
def followers(request: HttpRequest, login: str) -> HttpResponse:
    return _people(request, login, services.followers_page, "People following @{login}")


@require_GET
def following(request: HttpRequest, login: str) -> HttpResponse:
    return _people(request, login, services.following_page, "People @{login} follows")
