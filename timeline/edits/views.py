"""Editing one's status (/statuses/<id>/edit/: the form, and its POST) and a status's
history of versions (/statuses/<id>/history/)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from accounts.auth import current_uid, logged_in_uid
from socialsite.ratelimit import rate_limited

from ..statuses.selectors import with_authors
from ..web import login_first
from . import selectors, services


def _gone(status_id: int) -> Http404:
    return Http404(f"There is no status {status_id}: it may have been deleted.")


@require_http_methods(["GET", "POST"])
@login_first(lambda status_id: reverse("edit_status", args=[status_id]))
@rate_limited("edits")
def edit_status(request: HttpRequest, status_id: int) -> HttpResponse:
    """The edit form of one's own status; its POST saves the edit and goes to the status."""
    uid = logged_in_uid(request)
    found = selectors.shown_edited(status_id, uid)
    if found is None:
        raise _gone(status_id)
    if found["uid"] != uid:
        raise PermissionDenied("You can only edit your own statuses.")
    form = {
        "message": found["message"],
        "spoiler_text": found.get("spoiler_text", ""),
        "sensitive": found.get("sensitive") == "1",
    }
    if request.method == "POST":
        form = {
            "message": request.POST.get("message", ""),
            "spoiler_text": request.POST.get("spoiler_text", ""),
            "sensitive": request.POST.get("sensitive") == "1",
        }
        try:
            services.edit_status(uid, status_id, **form)
        except services.NotYours as error:
            raise PermissionDenied(str(error)) from None
        except services.StatusGone:
            raise _gone(status_id) from None
        except ValueError as error:
            page = {"status": found, "form": form, "error": str(error)}
            return render(request, "timeline/edit.html", page, status=400)
        messages.success(request, "Your status is edited.")
        return redirect(reverse("status", args=[status_id]))
    return render(request, "timeline/edit.html", {"status": found, "form": form})


@require_GET
def history(request: HttpRequest, status_id: int) -> HttpResponse:
    """Every version of a status, newest first, as anyone who may see it may."""
    found = selectors.shown_edited(status_id, current_uid(request))
    if found is None:
        raise _gone(status_id)
    with_authors([found])
    versions = list(reversed(selectors.history(found)))
    return render(request, "timeline/history.html", {"status": found, "versions": versions})
