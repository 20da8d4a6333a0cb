"""How an attachment is laid out in its hash (media:{uid}:<id>): the one place that
knows it. A million users post a few million attachments, so fields have one-letter
names and what is usual is left out (an absent state means ready, no alt text no field).

    k kind (image, gifv, video)      t the token its file names are made from (random)
    e its file's extension            w, h its file's pixels    v, u the preview's pixels
    b blurhash                        d alt text                x focus "x,y"
    s state while not ready           r why it failed           l length in seconds
    a the status it is attached to    n bytes its files take    c upload time (Unix s)

Files (through Django's default storage): the attachment's own `attachments/<t>.<e>`
and its preview `attachments/<t>-small.webp`; while the worker transcodes, the upload
as sent is `attachments/incoming/<t>.<e>`."""

from collections.abc import Mapping
from typing import Any, cast

from django.core.files.storage import default_storage

from .records import KINDS, Attachment, State

KIND, TOKEN, EXTENSION, WIDTH, HEIGHT = "k", "t", "e", "w", "h"
PREVIEW_WIDTH, PREVIEW_HEIGHT, BLURHASH, DESCRIPTION, FOCUS = "v", "u", "b", "d", "x"
STATE, ERROR, DURATION, STATUS, BYTES, CREATED = "s", "r", "l", "a", "n", "c"
PREVIEW_EXTENSION = "webp"


def file_name(token: str, extension: str) -> str:
    """The storage name of an attachment's own file."""
    return f"attachments/{token}.{extension}"


def preview_name(token: str) -> str:
    """The storage name of an attachment's preview."""
    return f"attachments/{token}-small.{PREVIEW_EXTENSION}"


def incoming_name(token: str, extension: str) -> str:
    """The storage name of an upload waiting for the worker (a video, an animated GIF)."""
    return f"attachments/incoming/{token}.{extension}"


def stored_names(fields: Mapping[str, str]) -> list[str]:
    """Every storage name an attachment's hash may have files under."""
    token, extension = fields.get(TOKEN), fields.get(EXTENSION, "")
    if not token:
        return []
    return [file_name(token, extension), preview_name(token), incoming_name(token, extension)]


def focus_field(x: float, y: float) -> str:
    return f"{x:g},{y:g}"


def read_focus(stored: str | None) -> tuple[float, float]:
    if not stored:
        return (0.0, 0.0)
    x, _, y = stored.partition(",")
    return (float(x), float(y))


def decode_attachment(
    uid: int, media_id: int | str, fields: Mapping[str, str]
) -> Attachment | None:
    """Attachment `media_id` of `uid` from its hash's fields (HGETALL's reply); None if
    it has none (never uploaded, or deleted)."""
    if not fields:
        return None
    state = cast(State, fields.get(STATE) or "ready")
    kind = fields.get(KIND, "image")
    token = fields.get(TOKEN, "")
    ready = state == "ready"
    status = fields.get(STATUS)
    return Attachment(
        id=int(media_id),
        uid=int(uid),
        kind=kind if kind in KINDS else "image",
        state=state,
        url=default_storage.url(file_name(token, fields.get(EXTENSION, ""))) if ready else "",
        preview_url=default_storage.url(preview_name(token)) if ready else "",
        width=int(fields.get(WIDTH, 0)),
        height=int(fields.get(HEIGHT, 0)),
        preview_width=int(fields.get(PREVIEW_WIDTH, 0)),
        preview_height=int(fields.get(PREVIEW_HEIGHT, 0)),
        blurhash=fields.get(BLURHASH, ""),
        description=fields.get(DESCRIPTION, ""),
        focus=read_focus(fields.get(FOCUS)),
        status_id=int(status) if status and status.isdigit() else None,
        duration=float(fields.get(DURATION, 0) or 0),
        error=fields.get(ERROR, ""),
        attached_to=status or "",
    )


def ready_fields(
    *,
    extension: str,
    size: tuple[int, int],
    preview: tuple[int, int],
    blurhash: str,
    stored_bytes: int,
    duration: float = 0.0,
) -> dict[str, Any]:
    """The fields a finished attachment's hash gains (an HSET; STATE and ERROR go)."""
    fields: dict[str, Any] = {
        EXTENSION: extension,
        WIDTH: size[0],
        HEIGHT: size[1],
        PREVIEW_WIDTH: preview[0],
        PREVIEW_HEIGHT: preview[1],
        BLURHASH: blurhash,
        BYTES: stored_bytes,
    }
    if duration:
        fields[DURATION] = f"{duration:.2f}"
    return fields
