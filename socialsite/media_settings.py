"""Settings of media attachments (timeline.media), imported by socialsite.settings: each
from the environment under its own name, read at call time so tests may override them."""

import os


def _env_int(name: str, default: int) -> int:
    from django.core.exceptions import ImproperlyConfigured

    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise ImproperlyConfigured(f"{name} must be a whole number more than 0, not {value!r}")
    return number


# Bytes of files one account's attachments may keep in storage (redrawn pictures,
# transcoded videos and their previews; an upload waiting for the worker counts as sent).
MEDIA_MAX_BYTES_PER_USER = _env_int("MEDIA_MAX_BYTES_PER_USER", 1024 * 1024 * 1024)
# Bytes one request may upload in all (the composer's four files, or one API upload):
# refused from its Content-Length before its form is parsed (the server has taken it
# in by then: Django's ASGI handler spools a big body to a temporary file).
MEDIA_MAX_BYTES_PER_REQUEST = _env_int("MEDIA_MAX_BYTES_PER_REQUEST", 100 * 1024 * 1024)
# An upload not attached to a status within this many seconds is deleted by a job.
MEDIA_UNATTACHED_SECONDS = _env_int("MEDIA_UNATTACHED_SECONDS", 24 * 3600)
