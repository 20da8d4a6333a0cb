"""The settings page's "Export my data": the download."""

import time
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.http import HttpRequest, StreamingHttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.auth import logged_in_uid
from socialsite.ratelimit import rate_limited

from ..web import login_first
from .selectors import export_chunks, moment


async def as_async(chunks: Iterator[str]) -> AsyncIterator[bytes]:
    """The export's pieces for daphne to send as they are read: each Redis read in a
    thread, none holding the event loop. (Given a plain iterator, Django would read it
    whole into memory first.)"""
    # asgiref's types keep one of next()'s signatures, the one without a default.
    while (chunk := await sync_to_async(next)(chunks, None)) is not None:  # type: ignore[call-arg]
        yield chunk.encode()


@require_POST
@login_first(lambda: reverse("accounts:settings"))
@rate_limited("exports")
def export_data(request: HttpRequest) -> StreamingHttpResponse:
    """Your data as a JSON file: profile, statuses, follows, followers, lists and likes."""
    now = time.time()
    chunks = export_chunks(logged_in_uid(request), now=now)
    response = StreamingHttpResponse(as_async(chunks), content_type="application/json")
    filename = f"socialsite-{request.user.username}-{moment(now)[:10]}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response
