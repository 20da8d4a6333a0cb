"""What an edit of a status changes of its attachments: their alt texts and focal points
(timeline.edits asks; an edit doesn't change which attachments a status has)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from socialsite.redis import Batch, Client

from .. import keys as timeline_keys
from . import keys, layout, selectors
from .records import MAX_ATTACHMENTS, media_ids_of
from .services import MediaError, check_description, check_focus, check_media_ids


@dataclass(frozen=True)
class MediaChange:
    """An edit's change to one of its status's attachments: its alt text (None: as it
    is; blank: none) and focal point (None: as it is)."""

    id: int
    description: str | None = None
    focus: tuple[float, float] | None = None


def check_media_changes(changes: Iterable[Any]) -> tuple[MediaChange, ...]:
    """An edit's `media_attributes` (dicts with `id`, and `description` and/or `focus`)
    checked; MediaError saying what is wrong."""
    checked: list[MediaChange] = []
    for change in changes:
        if not isinstance(change, dict):
            raise MediaError("Each media attribute is an object with an id.")
        (media_id,) = check_media_ids([change.get("id")])
        description = change.get("description")
        checked.append(
            MediaChange(
                media_id,
                None if description is None else check_description(description),
                check_focus(change.get("focus")),
            )
        )
    if len(checked) > MAX_ATTACHMENTS:
        raise MediaError(f"A status has at most {MAX_ATTACHMENTS} attachments.")
    return tuple(checked)


def check_attached(
    conn: Client,
    uid: int,
    status_id: int,
    changes: Sequence[MediaChange],
    media_ids: Sequence[int] | None,
) -> None:
    """MediaError unless each of `changes` is of an attachment of `uid`'s status
    `status_id` and `media_ids` (None: not given) are its attachments as they are (an
    edit changes their alt texts, not which they are). 1 round trip."""
    batch = Batch(conn)
    current = batch.hget(timeline_keys.status_key(status_id), "media")
    attached = selectors.queue_attachments(batch, uid, [c.id for c in changes])
    batch.execute()
    have = media_ids_of({"media": current.value})
    if media_ids is not None and sorted(media_ids) != sorted(have):
        raise MediaError("An edit can change its media's descriptions, not which media it has.")
    found = selectors.decode_queued(uid, attached)
    strangers = [
        c.id for c in changes if c.id not in {a.id for a in found if a.status_id == status_id}
    ]
    if strangers:
        raise MediaError(f"Attachment {strangers[0]} is not one of this status's.")


def describe_attached(conn: Client, uid: int, changes: Sequence[MediaChange]) -> bool:
    """Sets the alt texts and focal points an edit changes (checked by check_attached):
    whether any was there to change."""
    if not changes:
        return False
    pipe = conn.pipeline(transaction=False)
    for change in changes:
        key = keys.attachment_key(uid, change.id)
        if change.description:
            pipe.hset(key, layout.DESCRIPTION, change.description)
        elif change.description == "":
            pipe.hdel(key, layout.DESCRIPTION)
        if change.focus is not None:
            pipe.hset(key, layout.FOCUS, layout.focus_field(*change.focus))
    pipe.execute()
    return True
