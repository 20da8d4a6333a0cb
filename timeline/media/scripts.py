"""The media room's Lua scripts (`lua/` beside this module), one function each: the only
way any module runs them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

from . import keys

_lua = LuaScripts(__file__)


def store_upload(
    client: Client | Pipe,
    *,
    uid: int,
    media_id: int,
    created: int,
    stored_bytes: int,
    quota: int,
    fields: dict[str, Any],
) -> Any:
    """Stores upload `media_id` of `uid` unless it passes `quota`: the bytes kept after
    it, or -1 (nothing stored)."""
    flat = [part for pair in fields.items() for part in pair]
    return _lua.run(
        client,
        "store_upload",
        [keys.attachment_key(uid, media_id), keys.user_media_key(uid), keys.media_bytes_key(uid)],
        [media_id, created, stored_bytes, quota, *flat],
    )


def attach_media(client: Client | Pipe, *, uid: int, media_ids: list[int], owner: str) -> Any:
    """Attaches `uid`'s uploads `media_ids` to `owner` (a status id, or a direct message's
    name), all or none: [0, ""], or the 1-based place of the first refused and why
    ("gone", "failed", "attached")."""
    return _lua.run(
        client,
        "attach_media",
        [keys.attachment_key(uid, media_id) for media_id in media_ids],
        [owner],
    )


def delete_media(client: Client | Pipe, *, uid: int, media_ids: list[int]) -> Any:
    """Deletes `uid`'s attachments `media_ids` (records, index, quota): how many were."""
    return _lua.run(
        client,
        "delete_media",
        [
            keys.user_media_key(uid),
            keys.media_bytes_key(uid),
            *(keys.attachment_key(uid, media_id) for media_id in media_ids),
        ],
        list(media_ids),
    )


def finish_media(
    client: Client | Pipe, *, uid: int, media_id: int, stored_bytes: int, fields: dict[str, Any]
) -> Any:
    """Ends the processing of `uid`'s attachment `media_id` with `fields` (its STATE
    among them for "failed"): [1, its status id or ""], or [0, ""] if it is gone or
    was done already."""
    flat = [part for pair in fields.items() for part in pair]
    return _lua.run(
        client,
        "finish_media",
        [keys.attachment_key(uid, media_id), keys.media_bytes_key(uid)],
        [stored_bytes, *flat],
    )
