"""The worker's media jobs: transcoding a video or an animated GIF, deleting an upload
never attached, a deleted status's attachments and a closed account's. Each is
idempotent (a job redone after a crash finds what is left)."""

import logging
import shutil
from pathlib import Path
from typing import Any

from django.core.files import File
from django.core.files.storage import default_storage
from django.dispatch import receiver

from accounts.services import account_closed
from socialsite import jobs
from socialsite.redis import get_redis

from .. import keys as timeline_keys
from . import keys, layout, pipeline, scripts, services, video

log = logging.getLogger(__name__)
# Attachments deleted a job, for a closed account's.
PURGE_BATCH = 100


@jobs.handler("media_transcode")
def transcode(args: dict[str, Any]) -> list[jobs.Job]:
    """Transcodes a "processing" upload to H.264 MP4 with a poster frame, its preview and
    blurhash, and marks it ready (or failed, saying why); the upload as sent is deleted."""
    uid, media_id = int(args["uid"]), int(args["id"])
    conn = get_redis()
    fields = conn.hgetall(keys.attachment_key(uid, media_id))
    if fields.get(layout.STATE) != "processing":
        return []
    token, extension = fields[layout.TOKEN], fields[layout.EXTENSION]
    incoming = layout.incoming_name(token, extension)
    with services.temporary_dir() as folder:
        source = Path(folder) / f"in.{extension}"
        try:
            with default_storage.open(incoming, "rb") as sent, source.open("wb") as out:
                shutil.copyfileobj(sent, out)
            done = _transcoded(source, Path(folder), fields.get(layout.KIND) == "video")
        except FileNotFoundError:
            done = (0, {layout.STATE: "failed", layout.ERROR: "The upload is gone."})
        except video.BadVideo as error:
            log.info("media %s of %s failed to transcode: %s", media_id, uid, error)
            done = (0, {layout.STATE: "failed", layout.ERROR: str(error)})
        stored_bytes, finished = done
        if stored_bytes:
            for name, path in (
                (layout.file_name(token, "mp4"), Path(folder) / "out.mp4"),
                (layout.preview_name(token), Path(folder) / "preview.webp"),
            ):
                with path.open("rb") as file:
                    default_storage.save(name, File(file))
    changed, status_id = scripts.finish_media(
        conn, uid=uid, media_id=media_id, stored_bytes=stored_bytes, fields=finished
    )
    services.delete_files([incoming])
    if not int(changed) and stored_bytes:
        # Deleted (or done by another run) meanwhile: these files are no one's.
        services.delete_files([layout.file_name(token, "mp4"), layout.preview_name(token)])
    if int(changed) and str(status_id).isdigit():
        # Pages and processes forget what they kept of its status (statuses.cache).
        conn.publish(timeline_keys.STATUS_CHANGES_CHANNEL, timeline_keys.status_key(status_id))
    return []


def _transcoded(source: Path, folder: Path, sound: bool) -> tuple[int, dict[str, Any]]:
    """The video at `source` made an MP4 and a preview in `folder`: (bytes they take,
    the attachment's ready fields)."""
    probe = video.probe(source)
    mp4, poster = video.transcode(source, folder, sound=sound)
    still = pipeline.redraw_still(str(poster))
    (folder / "preview.webp").write_bytes(still.preview)
    stored_bytes = mp4.stat().st_size + len(still.preview)
    fields = layout.ready_fields(
        extension="mp4",
        size=still.size,
        preview=still.preview_size,
        blurhash=still.blurhash,
        stored_bytes=stored_bytes,
        duration=probe.duration,
    )
    return stored_bytes, fields


@jobs.handler("media_expire")
def expire(args: dict[str, Any]) -> list[jobs.Job]:
    """Deletes an upload still not attached (or attached to a status never stored, or
    gone) when its time is up; one attached to a stored status, or to a direct message,
    stays."""
    uid, media_id = int(args["uid"]), int(args["id"])
    conn = get_redis()
    attached = conn.hget(keys.attachment_key(uid, media_id), layout.STATUS)
    if attached and not attached.isdigit():
        return []
    if attached and conn.exists(timeline_keys.status_key(attached)):
        return []
    services.delete_media(uid, [media_id])
    return []


@jobs.handler("media_delete")
def delete(args: dict[str, Any]) -> list[jobs.Job]:
    """Deletes a deleted status's attachments, files and records."""
    services.delete_media(int(args["uid"]), [int(i) for i in args["ids"]])
    return []


@receiver(account_closed)
def purge_closed_account_media(sender: object, uid: int, **kwargs: object) -> None:
    """Queues the deletion of a closed account's attachments, every one of them."""
    jobs.enqueue(get_redis(), ("media_purge_user", {"uid": int(uid)}))


@jobs.handler("media_purge_user")
def purge_user(args: dict[str, Any]) -> list[jobs.Job]:
    """Deletes a pass of a closed account's attachments; queues the next while any are left."""
    uid = int(args["uid"])
    media_ids = [int(i) for i in get_redis().zrange(keys.user_media_key(uid), 0, PURGE_BATCH - 1)]
    services.delete_media(uid, media_ids)
    leftover = get_redis().zrange(keys.user_media_key(uid), 0, 0)
    if media_ids and leftover:
        return [("media_purge_user", args)]
    if leftover:
        get_redis().delete(keys.user_media_key(uid))
    return []
