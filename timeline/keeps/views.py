"""The bookmark and pin buttons, your bookmarks page, and a tag's page with its follow
button."""

from collections.abc import Callable
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.auth import current_uid, logged_in_uid
from socialsite.ratelimit import rate_limited
from socialsite.views import is_htmx

from ..conversations.selectors import check_tag, tag_page
from ..statuses.selectors import AlreadyDone
from ..web import login_first, next_url, refused, render_statuses, status_button
from . import selectors, services

bookmark = status_button(services.bookmark, "Bookmarked.", limit="keeps")
unbookmark = status_button(services.unbookmark, "Bookmark removed.", limit="keeps")
pin = status_button(services.pin, "Pinned to your profile.", limit="keeps")
unpin = status_button(services.unpin, "Unpinned.", limit="keeps")


@require_GET
@login_required
def bookmarks(request: HttpRequest) -> HttpResponse:
    """The statuses you bookmarked: only ever your own bookmarks."""
    uid = logged_in_uid(request)
    return render_statuses(
        request,
        lambda number, count, viewer: selectors.bookmarks_page(uid, number, count),
        "timeline/statuses.html",
        {
            "title": "Your bookmarks",
            "lede": "Only you can see your bookmarks.",
            "empty": "No bookmarks yet.",
        },
    )


@require_GET
def tag(request: HttpRequest, tag: str) -> HttpResponse:
    """Statuses with a #tag, in any case, and the viewer's follow button for it."""
    try:
        name = check_tag(tag)
    except ValueError as error:
        raise Http404(str(error)) from None
    return render_statuses(
        request,
        lambda number, count, viewer: tag_page(name, number, count, viewer),
        "timeline/statuses.html",
        {
            "title": f"#{name}",
            "empty": "No statuses with this tag.",
            "live_query": urlencode({"timeline": "tag", "tag": name}),
            "followed_tag": {
                "name": name,
                "following": selectors.follows_tag(current_uid(request), name),
            },
        },
    )


def _tag_follow_view(action: Callable, done: str):
    @require_POST
    @login_first(lambda tag: reverse("tag", args=[tag]))
    @rate_limited("keeps")
    def view(request: HttpRequest, tag: str) -> HttpResponse:
        uid = logged_in_uid(request)
        try:
            name = action(uid, tag)
        except AlreadyDone as error:
            name = check_tag(tag)
            if not is_htmx(request):
                messages.info(request, f"Nothing to do: {error}")
        except ValueError as error:
            return refused(request, error)
        else:
            if not is_htmx(request):
                messages.success(request, done.format(name=name))
        if is_htmx(request):
            following = selectors.follows_tag(uid, name)
            context = {"followed_tag": {"name": name, "following": following}}
            return render(request, "timeline/_tag_follow.html", context)
        return redirect(next_url(request, reverse("tag", args=[name])))

    return view


follow_tag = _tag_follow_view(services.follow_tag, "You now follow #{name}.")
unfollow_tag = _tag_follow_view(services.unfollow_tag, "You no longer follow #{name}.")
