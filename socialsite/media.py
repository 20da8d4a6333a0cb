"""Serving uploaded files (avatars) from MEDIA_ROOT while settings.SERVE_MEDIA is on:
`make run` needs no web server. In production a proxy serves MEDIA_ROOT, or the storage
backend (django-storages) serves the files itself; see docs/operations.md."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase
from django.views.static import serve


def media(request: HttpRequest, path: str) -> HttpResponseBase:
    """The uploaded file at `path` under MEDIA_ROOT (read at each request), or 404."""
    try:
        return serve(request, path, document_root=str(settings.MEDIA_ROOT))
    except (OSError, ValueError):
        # A name the file system refuses (too long, a NUL byte): no such file either.
        raise Http404("There is no such file.") from None
