"""Media in the client API's entities: Mastodon's MediaAttachment, and a Status entity's
`media_attachments` (timeline.media)."""

from typing import Any

from timeline.media import pipeline, video
from timeline.media.records import DESCRIPTION_MAX_CHARS, Attachment
from timeline.media.selectors import status_attachments, with_attachments
from timeline.media.services import MediaError, check_media_ids
from timeline.statuses.records import Status

from .http import ApiError


def _absolute(site: str, address: str) -> str | None:
    if not address:
        return None
    return address if "://" in address else site + address


def _size(width: int, height: int) -> dict[str, Any]:
    return {
        "width": width,
        "height": height,
        "size": f"{width}x{height}",
        "aspect": width / height if height else 1.0,
    }


def attachment_entity(site: str, found: Attachment) -> dict:
    """A MediaAttachment entity: `url` and `preview_url` null while it is processing;
    `type` "unknown" once its conversion failed."""
    meta: dict[str, Any] = {}
    if found.width and found.height:
        meta["original"] = _size(found.width, found.height)
        if found.duration:
            meta["original"]["duration"] = found.duration
    if found.preview_width and found.preview_height:
        meta["small"] = _size(found.preview_width, found.preview_height)
    x, y = found.focus
    meta["focus"] = {"x": x, "y": y}
    return {
        "id": str(found.id),
        "type": "unknown" if found.state == "failed" else found.kind,
        "url": _absolute(site, found.url),
        "preview_url": _absolute(site, found.preview_url),
        "remote_url": None,
        "preview_remote_url": None,
        "text_url": None,
        "meta": meta,
        "description": found.description or None,
        "blurhash": found.blurhash or None,
    }


def read_attachments(statuses: list[Status]) -> None:
    """Reads a page's attachments for its entities (one round trip; none without media)."""
    with_attachments(statuses)


def media_fields(site: str, found: Status) -> dict:
    """A Status entity's `media_attachments` (read here, one round trip, for a status
    whose page didn't read them with `read_attachments`)."""
    if not found.get("media"):
        return {"media_attachments": []}
    attachments = found.get("attachments")
    if attachments is None:
        attachments = status_attachments(dict(found))
    return {"media_attachments": [attachment_entity(site, a) for a in attachments]}


def media_ids_param(found: dict) -> dict:
    """`media_ids[]` (a form's repeated field, or a JSON list as `media_ids`) as the
    post's `media_ids=`; 422 for anything but a list of at most 4 ids."""
    given = found.get("media_ids[]", found.get("media_ids"))
    if given in (None, "", []):
        return {}
    if isinstance(given, str | int):
        given = [given]
    if not isinstance(given, list):
        raise ApiError(422, "media_ids must be a list of attachment ids.")
    try:
        return {"media_ids": check_media_ids(given)}
    except MediaError as error:
        raise ApiError(422, f"Validation failed: {error}") from None


def media_configuration() -> dict:
    """The instance's `media_attachments` configuration: what an upload may be."""
    return {
        "supported_mime_types": [
            *sorted(set(pipeline.MEDIA_TYPES.values())),
            *sorted(t for types, _ in video.CONTAINERS.values() for t in types),
        ],
        "description_limit": DESCRIPTION_MAX_CHARS,
        "image_size_limit": pipeline.MAX_BYTES,
        "image_matrix_limit": pipeline.MAX_PIXELS,
        "video_size_limit": video.MAX_BYTES,
        "video_frame_rate_limit": 60,
        "video_matrix_limit": video.MAX_PIXELS,
    }
