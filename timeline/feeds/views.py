"""The home timeline (with the post box), the global timeline, and one status's card as
the live home timeline inserts it."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.auth import current_uid

from ..discovery.trends import trending_tags
from ..forms import StatusForm
from ..web import page_number, render_statuses, require_page
from . import selectors


def render_home(
    request: HttpRequest,
    uid: int,
    form: StatusForm,
    status: int = 200,
    *,
    first: selectors.HomeFirstReads | None = None,
) -> HttpResponse:
    """`uid`'s home page with `form` in its post box (a bound one shows its errors);
    `first`: its first reads, made already (see selectors.home_page)."""
    number = page_number(request)
    home = selectors.home_page(uid, number, settings.STATUSES_PER_PAGE, first=first)
    return render_home_page(request, home, form, status)


def render_home_page(
    request: HttpRequest,
    home: selectors.HomePage | None,
    form: StatusForm,
    status: int = 200,
    *,
    order: str = "latest",
) -> HttpResponse:
    """A home page read (`home`, in `order`: "latest" or "top", the page's tabs) with
    `form` in its post box."""
    if home is None:
        raise Http404("Your profile is gone.")
    require_page(home.page.number, home.page.statuses, home.page.has_older)
    context = {
        "form": form,
        "page": home.page,
        "person": home.user,
        "suggestions": home.suggestions,
        "trends": trending_tags(),
        "catching_up": home.catching_up,
        "groups": home.groups,
        "order": order,
    }
    return render(request, "timeline/home.html", context, status=status)


def welcome(request: HttpRequest) -> HttpResponse:
    """The visitors' home: a welcome and the global timeline."""
    return _global(request, "timeline/welcome.html")


def _global(request: HttpRequest, template: str) -> HttpResponse:
    return render_statuses(request, selectors.global_timeline_page, template, {})


@require_GET
def global_timeline(request: HttpRequest) -> HttpResponse:
    return _global(request, "timeline/global.html")


@require_GET
@login_required
def status_card(request: HttpRequest, status_id: int) -> HttpResponse:
    """One status's card as the viewer's timelines show it, and nothing else: the live
    home timeline fetches new statuses here, as a whole page would show (and so use up)
    the messages waiting for the viewer's next page, such as "Posted."."""
    status = selectors.shown_status(status_id, viewer=current_uid(request))
    if status is None:
        # Plain text, not the 404 page: that page shows (and uses up) the messages too.
        return HttpResponseNotFound(
            f"There is no status {status_id}: it may have been deleted.",
            content_type="text/plain; charset=utf-8",
        )
    return render(request, "timeline/status_card.html", {"status": status})
