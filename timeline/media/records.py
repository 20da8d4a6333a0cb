"""The attachment record: a picture, animated GIF or video as a page, the client API
and a status's stream event show it. A status holds its attachments' ids (the `media`
field of its hash: "12,13"); their records are hashes of their own (media.layout)."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["image", "gifv", "video"]
State = Literal["processing", "ready", "failed"]
KINDS: tuple[Kind, ...] = ("image", "gifv", "video")
# An attachment's alt text is at most this long (Mastodon's limit).
DESCRIPTION_MAX_CHARS = 1500
# A status carries at most this many attachments.
MAX_ATTACHMENTS = 4


@dataclass(frozen=True, slots=True)
class Attachment:
    """One attachment. `url` is its file (a re-encoded picture, or an H.264 MP4 for a
    gifv or a video), `preview_url` a still of at most 640 px a side (a video's poster
    frame); both are empty while it is "processing" (the worker transcodes a video or
    an animated GIF) or once it "failed". `width`/`height` are `url`'s pixels,
    `preview_width`/`preview_height` the preview's (0 until known). `focus` is the
    focal point, x and y each in -1.0..1.0 (Mastodon's), (0, 0) the centre."""

    id: int
    uid: int
    kind: Kind
    state: State
    url: str
    preview_url: str
    width: int
    height: int
    preview_width: int
    preview_height: int
    blurhash: str
    description: str
    focus: tuple[float, float]
    # The status it is attached to (None until posted with one).
    status_id: int | None
    # A video's or gifv's length in seconds (0.0 for a picture or before it is known).
    duration: float = 0.0
    # Why the worker couldn't make it ("failed" only).
    error: str = ""
    # What it is attached to: a status's id as text, or another owner's name (a direct
    # message's, media.services.message_owner); "" until attached.
    attached_to: str = ""

    @property
    def ready(self) -> bool:
        return self.state == "ready"

    @property
    def processing(self) -> bool:
        return self.state == "processing"

    @property
    def aspect(self) -> float:
        """Width over height (1.0 until known)."""
        return self.width / self.height if self.width and self.height else 1.0


def media_ids_of(status: Mapping[str, Any]) -> list[int]:
    """The attachment ids a status's dict holds (its `media` field), in their order."""
    field = status.get("media")
    return [int(part) for part in str(field).split(",") if part] if field else []


def media_field(media_ids: list[int]) -> str:
    """A status's `media` field for `media_ids`."""
    return ",".join(str(media_id) for media_id in media_ids)
