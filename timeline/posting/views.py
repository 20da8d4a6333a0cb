"""Posting a status from the home page's box or a conversation's reply box, and deleting
one's own."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid
from socialsite.ratelimit import RateLimited, rate_limited, too_many_requests
from socialsite.views import is_htmx

from ..conversations.views import render_status_page
from ..feeds.views import render_home
from ..forms import StatusForm
from ..groups.services import GroupError
from ..groups.views import composer_group, render_group
from ..media import form_uploads as media_uploads
from ..media.services import MediaError
from ..web import act_on_status, login_first, next_url
from . import services
from .quote_views import render_quote


@require_POST
@login_first(lambda: reverse("home"))
@rate_limited("posts")
def post_status(request: HttpRequest) -> HttpResponse:
    uid = logged_in_uid(request)
    # Media (mediaweb): a body over the request's upload limit is refused unread.
    too_big = _too_big(request)
    form = StatusForm(QueryDict() if too_big else request.POST)
    # The composer's group picker, or a group page's box: `group=<handle>`.
    group = composer_group(form, request.POST.get("group", ""))
    quote_id = request.POST.get("quote_id", "")
    if too_big:
        form.add_error(None, too_big)
    elif form.is_valid():
        data = form.cleaned_data
        in_group = {"group": group.id} if group else {}
        # Polls: the composer's poll, if it has options.
        poll = {"poll": data["poll"]} if data.get("poll") else {}
        # Quotes: the quote composer's `quote_id`.
        quoting = {"quote_id": quote_id} if quote_id else {}

        def post(media_ids: list[int]) -> None:
            services.post_status(
                uid,
                data["message"],
                location=data["location"],
                media_ids=media_ids,
                **in_group,
                **poll,
                **quoting,
                **form.post_data(),
            )

        try:
            # Media (mediaweb): the files sent with it, uploaded, then attached.
            media_uploads.post_with_uploads(request, uid, post)
        except RateLimited as error:
            return too_many_requests(request, error)
        except (GroupError, ValueError) as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Posted to {group.name}." if group else "Posted.")
            back = reverse("group", args=[group.handle]) if group else reverse("home")
            return redirect(next_url(request, back))
    if quote_id:
        return render_quote(request, quote_id, form, status=400)
    if group is not None and next_url(request, "") == reverse("group", args=[group.handle]):
        return render_group(request, group, form, status=400)
    return render_home(request, uid, form, status=400)


def _too_big(request: HttpRequest) -> str:
    """Why the request's uploads are refused unread (over the request's limit), or ""."""
    try:
        media_uploads.check_request(request)
    except MediaError as error:
        return str(error)
    return ""


@require_POST
@login_first(lambda status_id: reverse("status", args=[status_id]))
def delete_status(request: HttpRequest, status_id: int) -> HttpResponse:
    deleted = services.delete_status(logged_in_uid(request), status_id)
    if deleted is None:
        raise Http404(f"There is no status {status_id}: it may have been deleted already.")
    if not deleted:
        raise PermissionDenied("You can only delete your own statuses.")
    if is_htmx(request):
        # In place: the card goes (nothing swaps in), as the live timelines drop it.
        return HttpResponse("")
    messages.success(request, "Your status is deleted.")
    back = next_url(request, reverse("home"))
    return redirect(reverse("home") if back == reverse("status", args=[status_id]) else back)


@require_POST
@login_first(lambda status_id: reverse("status", args=[status_id]))
@rate_limited("posts")
def reply(request: HttpRequest, status_id: int) -> HttpResponse:
    too_big = _too_big(request)
    form = StatusForm(QueryDict() if too_big else request.POST)
    if too_big or not form.is_valid():
        if too_big:
            form.add_error(None, too_big)
        return render_status_page(request, status_id, form, status=400)
    data = form.cleaned_data

    def answer(uid: int, parent: int) -> None:
        poll = {"poll": data["poll"]} if data.get("poll") else {}

        def post(media_ids: list[int]) -> None:
            services.post_status(
                uid,
                data["message"],
                location=data["location"],
                in_reply_to=parent,
                media_ids=media_ids,
                **poll,
                **form.post_data(),
            )

        # Media (mediaweb): the reply box's files, uploaded, then attached.
        media_uploads.post_with_uploads(request, uid, post)

    try:
        return act_on_status(request, status_id, answer, "Replied.")
    except RateLimited as error:
        return too_many_requests(request, error)
