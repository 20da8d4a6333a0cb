"""Checking attachments against what they belong to (`manage.py repair`): each uploader's
index against the attachments it names, attachments left on a status that is gone,
uploads never attached past their time (their expiry job lost), and the bytes each
uploader's quota counts against their attachments' own.

Walks the uploaders' indexes with SCAN (every primary of a cluster); a suspect is read
again before it is reported, so an upload or a post between two steps isn't damage."""

import time
from dataclasses import dataclass, field

from django.conf import settings

from socialsite.redis import Batch, Client, get_redis, scan_batches

from .. import keys as timeline_keys
from . import keys, layout, services

# An upload this long past its expiry is one its job will never delete.
OVERDUE_SECONDS = 3600


@dataclass
class MediaCheck:
    """What a walk of the attachments checked and found, as (key, problem)."""

    checked: int = 0
    findings: list[tuple[str, str]] = field(default_factory=list)


def check_media(*, fix: bool, chunk: int = 1000) -> MediaCheck:
    """Every attachment gone from its index, left behind by its status, or past its
    time unattached, and every quota's bytes that disagree (with `fix`, made right:
    such attachments deleted with their files, the bytes counted anew)."""
    conn = get_redis()
    found = MediaCheck()
    for index_keys in scan_batches(conn, keys.USER_MEDIA_PATTERN, "zset", chunk):
        for index_key in index_keys:
            _check_uploader(conn, keys.uid_in_user_media_key(index_key), found, fix)
    return found


def _read(conn: Client, uid: int) -> tuple[dict[int, dict[str, str]], int, dict[int, bool]]:
    """`uid`'s attachments (id -> the fields checked), the bytes their quota counts, and
    whether each attached status exists."""
    ids = [int(i) for i in conn.zrange(keys.user_media_key(uid), 0, -1)]
    batch = Batch(conn)
    kept = batch.get(keys.media_bytes_key(uid))
    fields = [
        batch.hmget(keys.attachment_key(uid, i), layout.STATUS, layout.BYTES, layout.CREATED)
        for i in ids
    ]
    batch.execute()
    found = {
        media_id: dict(zip((layout.STATUS, layout.BYTES, layout.CREATED), reply.value, strict=True))
        for media_id, reply in zip(ids, fields, strict=True)
    }
    attached = {
        media_id: int(f[layout.STATUS])
        for media_id, f in found.items()
        if (f[layout.STATUS] or "").isdigit()
    }
    exists = Batch(conn)
    there = {
        media_id: exists.exists(timeline_keys.status_key(s)) for media_id, s in attached.items()
    }
    exists.execute()
    return found, int(kept.value or 0), {media_id: bool(r.value) for media_id, r in there.items()}


def _suspects(found: dict[int, dict[str, str]], status_there: dict[int, bool]) -> dict[int, str]:
    due = time.time() - settings.MEDIA_UNATTACHED_SECONDS - OVERDUE_SECONDS
    suspects = {}
    for media_id, fields in found.items():
        if fields[layout.BYTES] is None and fields[layout.CREATED] is None:
            suspects[media_id] = "in the index, but gone"
        elif status_there.get(media_id) is False:
            suspects[media_id] = "attached to a status that is gone"
        elif not fields[layout.STATUS] and int(fields[layout.CREATED] or 0) < due:
            suspects[media_id] = "never attached, past its time"
    return suspects


def _check_uploader(conn: Client, uid: int, found: MediaCheck, fix: bool) -> None:
    fields, kept, status_there = _read(conn, uid)
    found.checked += len(fields)
    suspects = _suspects(fields, status_there)
    if suspects:
        # Read again: a post or a deletion may have been under way.
        fields, kept, status_there = _read(conn, uid)
        suspects = {i: why for i, why in _suspects(fields, status_there).items() if i in suspects}
    for media_id, why in suspects.items():
        found.findings.append((keys.attachment_key(uid, media_id), why))
    if fix and suspects:
        gone = [i for i, why in suspects.items() if why == "in the index, but gone"]
        if gone:
            conn.zrem(keys.user_media_key(uid), *gone)
        services.delete_media(uid, [i for i in suspects if i not in gone])
        fields, kept, _ = _read(conn, uid)
    counted = sum(int(f[layout.BYTES] or 0) for f in fields.values())
    if counted != kept:
        found.findings.append((keys.media_bytes_key(uid), f"counts {kept} bytes, not {counted}"))
        if fix:
            conn.set(keys.media_bytes_key(uid), counted)
