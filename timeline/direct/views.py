"""Direct messages: your inbox, starting a conversation, one conversation (reading and
answering it), leaving a group and deleting your message."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.auth import logged_in_uid
from accounts.authors import authors
from socialsite.ratelimit import RateLimited, rate_limited, too_many_requests
from socialsite.views import error_page, is_htmx

from ..media import form_uploads as media_uploads
from ..web import login_first, page_number, require_page
from . import selectors, services
from .services import MESSAGE_MAX_LENGTH, NoSuchConversation


@require_GET
@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """Your conversations, the one with the latest message first."""
    number = page_number(request)
    page = selectors.inbox_page(logged_in_uid(request), number, settings.STATUSES_PER_PAGE)
    require_page(number, page.conversations, page.has_older)
    members = {
        u: login for c in page.conversations for u, login in zip(c.uids, c.logins, strict=False)
    }
    # Each member's name and avatar (uid -> login, name, avatar), for the rows' avatars.
    return render(request, "timeline/inbox.html", {"page": page, "people": authors(members)})


@require_http_methods(["GET", "POST"])
@login_required
@rate_limited("messages")
def new_conversation(request: HttpRequest) -> HttpResponse:
    """The form (`to`: logins, comma-separated; `message`) that starts a conversation, or
    continues your one-to-one conversation with that person."""
    context = {"to": request.GET.get("to", ""), "message": "", "max_length": MESSAGE_MAX_LENGTH}
    if request.method == "GET":
        return render(request, "timeline/new_conversation.html", context)
    to, message = request.POST.get("to", ""), request.POST.get("message", "")
    uid, started = logged_in_uid(request), []
    try:
        # Media (mediaweb): the message's files, uploaded, then attached.
        media_uploads.check_request(request)
        media_uploads.post_with_uploads(
            request,
            uid,
            lambda media_ids: started.append(
                services.start_conversation(uid, to, message, media_ids=media_ids)
            ),
        )
        conversation_id = started[0]
    except RateLimited as error:
        return too_many_requests(request, error)
    except ValueError as error:
        context.update(to=to, message=message, error=str(error))
        return render(request, "timeline/new_conversation.html", context, status=400)
    return redirect("conversation", conversation_id)


@require_http_methods(["GET", "POST"])
@login_required
@rate_limited("messages")
def conversation(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """One of your conversations, the newest message at the bottom (?page=2: older), with a
    box to answer it (POST `message`); opening it marks it read. 404 unless you are in it."""
    uid = logged_in_uid(request)
    error, message = None, ""
    if request.method == "POST":
        message = request.POST.get("message", "")
        try:
            # Media (mediaweb): the message's files, uploaded, then attached.
            media_uploads.check_request(request)
            media_uploads.post_with_uploads(
                request,
                uid,
                lambda media_ids: services.send_message(
                    uid, conversation_id, message, media_ids=media_ids
                ),
            )
            return redirect("conversation", conversation_id)
        except RateLimited as limited:
            return too_many_requests(request, limited)
        except NoSuchConversation as gone:
            raise Http404(str(gone)) from None
        except ValueError as refused:
            error = str(refused)
    number = page_number(request)
    try:
        page = selectors.conversation_page(uid, conversation_id, number, settings.MESSAGES_PER_PAGE)
    except NoSuchConversation as gone:
        raise Http404(str(gone)) from None
    require_page(number, page.messages, page.has_older)
    context = {
        "page": page,
        "unread": services.mark_read(uid, conversation_id),
        "error": error,
        "message": message,
        "max_length": MESSAGE_MAX_LENGTH,
        # The members' names and avatars, for the messages' avatars.
        "people": authors(
            dict(zip(page.conversation.uids, page.conversation.logins, strict=False))
        ),
    }
    return render(request, "timeline/conversation.html", context, status=400 if error else 200)


def _back_to_inbox(**kwargs) -> str:
    return reverse("inbox")


@require_POST
@login_first(_back_to_inbox)
def mark_read(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """Marks a conversation read (its open page does, as messages arrive): 204."""
    services.mark_read(logged_in_uid(request), conversation_id)
    return HttpResponse(status=204)


@require_POST
@login_first(_back_to_inbox)
def leave(request: HttpRequest, conversation_id: int) -> HttpResponse:
    """Leaves a group conversation: back to the inbox."""
    try:
        services.leave_conversation(logged_in_uid(request), conversation_id)
    except NoSuchConversation as gone:
        raise Http404(str(gone)) from None
    except ValueError as refused:
        return error_page(request, 400, str(refused))
    return redirect("inbox")


@require_POST
@login_first(_back_to_inbox)
def delete_message(request: HttpRequest, conversation_id: int, message_id: int) -> HttpResponse:
    """Deletes a message of yours: back to the conversation."""
    try:
        services.delete_message(logged_in_uid(request), conversation_id, message_id)
    except NoSuchConversation as gone:
        raise Http404(str(gone)) from None
    except PermissionError as refused:
        return error_page(request, 403, str(refused))
    if is_htmx(request):
        # In place: the message goes (nothing swaps in), as the others' open pages drop it.
        return HttpResponse("")
    return redirect("conversation", conversation_id)
