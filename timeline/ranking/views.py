"""The home page in either order, Latest (newest first: feeds) or Top (by importance:
ranking.selectors), chosen by `?order=latest|top` and remembered per user."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from accounts.auth import current_uid
from accounts.backends import read_with_user
from socialsite.kept import keep
from socialsite.views import error_page

from ..feeds import selectors as feeds
from ..feeds.views import render_home, render_home_page, welcome
from ..forms import blank_status_form
from ..web import page_number
from . import services
from .selectors import LATEST, ORDER_FIELD, ORDERS, TOP, TopFirstReads, queue_top, top_page

# The order this process last served each user's home in: which first reads ride the
# session's round trip (its remembered order is read in that round trip too). A wrong
# guess (changed in another process) costs the replies not used and one round trip.
ORDER_GUESSES: dict[int, str] = {}
ORDER_GUESSES_KEPT = 100_000


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Your home timeline and the post box, newest first or by importance (`?order=`,
    remembered for next time); for visitors, a welcome and the global timeline."""
    asked = request.GET.get("order") or None
    if asked is not None and asked not in ORDERS:
        return error_page(request, 400, f"A home is ordered latest or top, not {asked!r}.")
    number, count = page_number(request), settings.STATUSES_PER_PAGE

    def queue(pipe, uid: int) -> TopFirstReads | feeds.HomeFirstReads:
        # The page's first reads go with the session's (one round trip fewer) where they can.
        if (asked or ORDER_GUESSES.get(uid)) == TOP:
            return queue_top(pipe, uid, number, count)
        return feeds.queue_home(pipe, uid, page=number, count=count)

    read = read_with_user(request, queue)
    uid = current_uid(request)
    if uid is None:
        return welcome(request)
    remembered = getattr(request.user, "session_fields", {}).get(ORDER_FIELD) or LATEST
    order = asked or remembered
    if order != remembered:
        services.set_home_order(uid, order)
    keep(ORDER_GUESSES, uid, order, ORDER_GUESSES_KEPT)
    reads = read.reads if read is not None and read.uid == uid else None
    if order == TOP:
        top_first = reads if isinstance(reads, TopFirstReads) else None
        home = top_page(uid, number, count, first=top_first)
        return render_home_page(request, home, blank_status_form(), order=TOP)
    first = reads if isinstance(reads, feeds.HomeFirstReads) else None
    return render_home(request, uid, blank_status_form(), first=first)
