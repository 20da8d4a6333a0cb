"""Reading attachments: one status's, a page of statuses' (one round trip, however many),
and an uploader's own by id (the client API's GET /api/v1/media/:id)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from socialsite.redis import Batch, Client, Reply, get_redis

from . import keys, layout
from .records import Attachment, media_ids_of


def queue_attachments(batch: Batch, uid: int, media_ids: Iterable[int]) -> list[tuple[int, Reply]]:
    """Queues the reads of `uid`'s attachments `media_ids` on `batch`: (id, its HGETALL),
    for `decode_queued` once the batch has run."""
    return [(media_id, batch.hgetall(keys.attachment_key(uid, media_id))) for media_id in media_ids]


def decode_queued(uid: int, queued: list[tuple[int, Reply]]) -> list[Attachment]:
    """The attachments read by `queue_attachments`, in its order, those gone left out."""
    found = (layout.decode_attachment(uid, media_id, reply.value) for media_id, reply in queued)
    return [attachment for attachment in found if attachment is not None]


def _shown(statuses: Iterable[Any]) -> list[dict[str, Any]]:
    """The statuses a page shows cards of: each, a repost's original, a quoted status."""
    shown = [s for s in statuses if s]
    shown += [original for s in shown if (original := s.get("original"))]
    shown += [quoted for s in shown if (quoted := s.get("quoted"))]
    return shown


def attachments_of_statuses(
    statuses: Sequence[Any], *, conn: Client | None = None
) -> dict[int, list[Attachment]]:
    """Status id -> its attachments, for `statuses` (dicts; a repost's original and a
    quoted status count too), in one round trip whatever their number (none if no
    status has media). A status without media has no entry."""
    with_media = [s for s in _shown(statuses) if s.get("media")]
    if not with_media:
        return {}
    batch = Batch(conn or get_redis())
    queued = {
        s["id"]: (int(s["uid"]), queue_attachments(batch, int(s["uid"]), media_ids_of(s)))
        for s in with_media
    }
    batch.execute()
    return {status_id: decode_queued(uid, reads) for status_id, (uid, reads) in queued.items()}


def with_attachments(statuses: Sequence[Any], *, conn: Client | None = None) -> None:
    """Gives each of `statuses` with media (and each repost's original, each quoted
    status) its attachments, as `attachments` (a list of Attachment): one round trip."""
    found = attachments_of_statuses(statuses, conn=conn)
    for status in _shown(statuses):
        if status["id"] in found:
            status["attachments"] = found[status["id"]]


def status_attachments(
    status: Mapping[str, Any], *, conn: Client | None = None
) -> list[Attachment]:
    """One status's attachments, in its order (one round trip; none without media)."""
    return attachments_of_statuses([status], conn=conn).get(status["id"], [])


def get_attachment(uid: int, media_id: int, *, conn: Client | None = None) -> Attachment | None:
    """`uid`'s attachment `media_id`, or None (none such, or someone else's)."""
    fields = (conn or get_redis()).hgetall(keys.attachment_key(uid, media_id))
    return layout.decode_attachment(uid, media_id, fields)


def get_attachments(
    uid: int, media_ids: Sequence[int], *, conn: Client | None = None
) -> list[Attachment | None]:
    """`uid`'s attachments `media_ids`, each or None (one round trip)."""
    batch = Batch(conn or get_redis())
    queued = queue_attachments(batch, uid, media_ids)
    batch.execute()
    return [layout.decode_attachment(uid, media_id, reply.value) for media_id, reply in queued]


def media_bytes(uid: int, *, conn: Client | None = None) -> int:
    """The bytes `uid`'s attachments keep in storage (what their quota counts)."""
    return int((conn or get_redis()).get(keys.media_bytes_key(uid)) or 0)


def user_media_ids(uid: int, *, conn: Client | None = None) -> list[int]:
    """Every attachment id `uid` has, oldest first."""
    return [int(i) for i in (conn or get_redis()).zrange(keys.user_media_key(uid), 0, -1)]
