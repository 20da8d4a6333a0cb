"""Uploading, describing, attaching and deleting media. Upload first, attach on post (as
Mastodon's clients do): `upload_media` checks the file on the request (a picture's header
and bytes; a video's container and, by ffprobe, its length), redraws a picture off the
request's slot (socialsite.offslot) and stores it; a video or an animated GIF is kept as
sent and left "processing" for the worker (media.jobs). The post attaches its uploads
(`attach`); one never attached is deleted after MEDIA_UNATTACHED_SECONDS, and a status's
attachments go with it (`queue_status_deleted`), an account's with the account."""

import contextlib
import os
import secrets
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from socialsite import jobs, offslot
from socialsite.pictures import BadPicture
from socialsite.redis import Client, get_redis
from socialsite.text import check_display_text

from . import keys, layout, pipeline, scripts, selectors, video
from .records import DESCRIPTION_MAX_CHARS, MAX_ATTACHMENTS, Attachment, media_field, media_ids_of


class MediaError(ValueError):
    """An upload or an attachment refused, saying why in words for its sender."""


class NoSuchMedia(MediaError):
    """No such attachment of the caller's (or it is attached, where that is refused)."""


@dataclass(frozen=True)
class Checked:
    """An upload as its check found it: its kind, the extension its file is kept under
    and, for a video, its length."""

    kind: str
    extension: str
    duration: float = 0.0


def check_description(description: Any) -> str:
    """An alt text to store (blank is none); MediaError if it is too long or not text."""
    if description is None:
        return ""
    if not isinstance(description, str):
        raise MediaError("The description must be text.")
    text: str = description.replace("\r\n", "\n").strip()
    if len(text) > DESCRIPTION_MAX_CHARS:
        raise MediaError(f"A description is at most {DESCRIPTION_MAX_CHARS:,} characters.")
    try:
        # As a status's text: line breaks kept, control and bidi characters refused.
        return check_display_text(text, multiline=True)
    except ValueError as error:
        raise MediaError(f"The description: {error}") from None


def check_focus(focus: Any) -> tuple[float, float] | None:
    """A focal point "x,y" (each -1.0..1.0, Mastodon's) as numbers; None for none;
    MediaError for anything else."""
    if focus in (None, ""):
        return None
    try:
        x, y = (float(part) for part in str(focus).split(","))
    except ValueError:
        raise MediaError('The focus is two numbers "x,y", each from -1.0 to 1.0.') from None
    if not (-1.0 <= x <= 1.0 and -1.0 <= y <= 1.0):
        raise MediaError('The focus is two numbers "x,y", each from -1.0 to 1.0.')
    return (x, y)


def check_request_size(content_length: Any) -> None:
    """MediaError if a request's body (its Content-Length) is over what one request may
    upload (MEDIA_MAX_BYTES_PER_REQUEST): checked before the body is read."""
    try:
        size = int(content_length or 0)
    except ValueError:
        size = 0
    most = settings.MEDIA_MAX_BYTES_PER_REQUEST
    if size > most:
        raise MediaError(f"Uploads are at most {most // (1024 * 1024)} MB a request.")


def _extension_of(filename: str | None) -> str | None:
    if not filename or "." not in filename:
        return None
    return filename.rsplit(".", 1)[1][:10] or None


def check_upload(data: bytes, *, media_type: str | None, filename: str | None) -> Checked:
    """What the upload in `data` is; MediaError saying why it is refused (too big, not a
    picture or video we take, not what its type or name says, a decompression bomb, a
    polyglot, a video too long). A picture's header and bytes are read; a video's
    container, then its streams by ffprobe."""
    extension = _extension_of(filename)
    try:
        if video.container_of(data) is not None:
            container = video.check_container(data, media_type, extension)
            return Checked("video", container, _probe(data).duration)
        header = pipeline.check_picture(data, media_type=media_type, extension=extension)
        if header.format == "GIF" and pipeline.is_animated(data):
            return Checked("gifv", "gif")
        return Checked("image", pipeline.EXTENSIONS[header.format])
    except BadPicture as error:
        raise MediaError(str(error)) from None


def _probe(data: bytes) -> video.Probe:
    missing = video.tools_missing()
    if missing:
        raise MediaError(f"This site can't take videos now ({missing} is not installed).")
    with tempfile.NamedTemporaryFile(suffix=".upload") as file:
        file.write(data)
        file.flush()
        return video.probe(file.name)


def upload_media(
    uid: int,
    data: bytes,
    *,
    media_type: str | None = None,
    filename: str | None = None,
    description: Any = None,
    focus: Any = None,
) -> Attachment:
    """Stores an upload of `uid`'s, not yet attached: a picture redrawn and "ready", a
    video or animated GIF "processing" until the worker transcodes it. MediaError (and
    nothing stored) for a bad file, alt text or focus, or over the account's quota;
    offslot.Busy when no process is free to redraw it."""
    text = check_description(description)
    point = check_focus(focus)
    checked = check_upload(data, media_type=media_type, filename=filename)
    conn = get_redis()
    _check_quota(conn, uid, len(data))
    token = secrets.token_hex(16)
    fields: dict[str, Any] = {layout.KIND: checked.kind, layout.TOKEN: token}
    if checked.kind == "image":
        redrawn = _redrawn(data)
        names = [layout.file_name(token, redrawn.extension), layout.preview_name(token)]
        default_storage.save(names[0], ContentFile(redrawn.data))
        default_storage.save(names[1], ContentFile(redrawn.preview))
        stored_bytes = len(redrawn.data) + len(redrawn.preview)
        fields |= layout.ready_fields(
            extension=redrawn.extension,
            size=redrawn.size,
            preview=redrawn.preview_size,
            blurhash=redrawn.blurhash,
            stored_bytes=stored_bytes,
        )
    else:
        names = [layout.incoming_name(token, checked.extension)]
        default_storage.save(names[0], ContentFile(data))
        stored_bytes = len(data)
        fields |= {
            layout.EXTENSION: checked.extension,
            layout.STATE: "processing",
            layout.BYTES: stored_bytes,
        }
        if checked.duration:
            fields[layout.DURATION] = f"{checked.duration:.2f}"
    if text:
        fields[layout.DESCRIPTION] = text
    if point:
        fields[layout.FOCUS] = layout.focus_field(*point)
    now = int(time.time())
    fields[layout.CREATED] = now
    media_id = int(conn.incr(keys.MEDIA_ID_COUNTER))
    pipe = conn.pipeline(transaction=False)
    scripts.store_upload(
        pipe,
        uid=uid,
        media_id=media_id,
        created=now,
        stored_bytes=stored_bytes,
        quota=settings.MEDIA_MAX_BYTES_PER_USER,
        fields=fields,
    )
    if checked.kind != "image":
        jobs.enqueue(pipe, transcode_job(uid, media_id))
    jobs.schedule(pipe, expiry_job(uid, media_id), now + settings.MEDIA_UNATTACHED_SECONDS)
    kept, *_ = pipe.execute()
    if kept == -1:
        delete_files(names)
        raise MediaError(_over_quota())
    found = layout.decode_attachment(uid, media_id, {k: str(v) for k, v in fields.items()})
    assert found is not None
    return found


@dataclass(frozen=True)
class Upload:
    """One file of a form's uploads: its bytes, stated type and name, and alt text."""

    data: bytes
    media_type: str | None = None
    filename: str | None = None
    description: str | None = None


def upload_many(uid: int, uploads: Sequence[Upload]) -> list[Attachment]:
    """Stores a form's uploads (the composer's, with JavaScript off: upload on post), at
    most MAX_ATTACHMENTS, all or none: MediaError naming the file refused (and the
    others deleted again). Their ids go to the post as `media_ids=`."""
    if len(uploads) > MAX_ATTACHMENTS:
        raise MediaError(f"A status has at most {MAX_ATTACHMENTS} attachments.")
    done: list[Attachment] = []
    try:
        for upload in uploads:
            try:
                done.append(
                    upload_media(
                        uid,
                        upload.data,
                        media_type=upload.media_type,
                        filename=upload.filename,
                        description=upload.description,
                    )
                )
            except MediaError as error:
                raise MediaError(f"{upload.filename or 'A file'}: {error}") from None
    except BaseException:
        delete_media(uid, [attachment.id for attachment in done])
        raise
    return done


def _over_quota() -> str:
    most = settings.MEDIA_MAX_BYTES_PER_USER
    return f"Your media take all the room your account has ({most // (1024 * 1024)} MB)."


def _check_quota(conn: Client, uid: int, adding: int) -> None:
    if selectors.media_bytes(uid, conn=conn) + adding > settings.MEDIA_MAX_BYTES_PER_USER:
        raise MediaError(_over_quota())


def _redrawn(data: bytes) -> pipeline.Redrawn:
    try:
        return offslot.run(pipeline.redraw, data)
    except BadPicture as error:
        raise MediaError(str(error)) from None
    except offslot.Overrun:
        raise MediaError("That picture takes too long to read.") from None


def transcode_job(uid: int, media_id: int) -> jobs.Job:
    return ("media_transcode", {"uid": uid, "id": media_id})


def expiry_job(uid: int, media_id: int) -> jobs.Job:
    return ("media_expire", {"uid": uid, "id": media_id})


def update_media(
    uid: int, media_id: int, *, description: Any = None, focus: Any = None, attached: bool = False
) -> Attachment:
    """Sets the alt text (None: as it is; blank: none) and focal point of `uid`'s upload
    `media_id`: the attachment as it now is. NoSuchMedia if there is none such, or it is
    attached to a status and `attached` is not given (Mastodon changes those by an edit
    of the status); MediaError for a bad text or focus."""
    text = None if description is None else check_description(description)
    point = check_focus(focus)
    conn = get_redis()
    key = keys.attachment_key(uid, media_id)
    found = selectors.get_attachment(uid, media_id, conn=conn)
    if found is None or (found.attached_to and not attached):
        raise NoSuchMedia("Record not found")
    pipe = conn.pipeline(transaction=False)
    # Only if it is still there (a deletion may have come between).
    pipe.exists(key)
    if text:
        pipe.hset(key, layout.DESCRIPTION, text)
    elif text == "":
        pipe.hdel(key, layout.DESCRIPTION)
    if point is not None:
        pipe.hset(key, layout.FOCUS, layout.focus_field(*point))
    there, *_ = pipe.execute()
    if not there:
        conn.delete(key)
        raise NoSuchMedia("Record not found")
    updated = selectors.get_attachment(uid, media_id, conn=conn)
    if updated is None:
        raise NoSuchMedia("Record not found")
    return updated


def check_media_ids(media_ids: Iterable[Any]) -> list[int]:
    """A post's attachment ids as numbers, at most MAX_ATTACHMENTS, none twice;
    MediaError otherwise."""
    found: list[int] = []
    for value in media_ids:
        try:
            media_id = int(str(value))
        except ValueError:
            raise MediaError(f"{value!r} is not an attachment id.") from None
        if media_id < 1 or media_id >= 1 << 63:
            raise MediaError(f"{value!r} is not an attachment id.")
        if media_id not in found:
            found.append(media_id)
    if len(found) > MAX_ATTACHMENTS:
        raise MediaError(f"A status has at most {MAX_ATTACHMENTS} attachments.")
    return found


ATTACH_REFUSALS = {
    "gone": "Attachment {id} doesn't exist or isn't yours.",
    "failed": "Attachment {id} couldn't be converted; upload it again.",
    "attached": "Attachment {id} is attached to another status already.",
}


def attach(conn: Client, uid: int, owner: int | str, media_ids: Sequence[int]) -> dict[str, str]:
    """Attaches `uid`'s uploads `media_ids` to `owner`: a status's id (allocated, the
    status not yet stored) or another owner's name (`message_owner`), all or none, in one
    script; the owner's `media` field. MediaError saying which can't be (someone else's,
    gone, failed, attached elsewhere). Attaching them again to the same owner is no error."""
    if not media_ids:
        return {}
    done, why = scripts.attach_media(conn, uid=uid, media_ids=list(media_ids), owner=str(owner))
    if int(done):
        raise MediaError(ATTACH_REFUSALS[why].format(id=media_ids[int(done) - 1]))
    return {"media": media_field(list(media_ids))}


def message_owner(conversation_id: int, message_id: int) -> str:
    """The owner name of a direct message's attachments (for `attach`): such attachments
    are kept until the message's deletion deletes them (`delete_media`)."""
    return f"dm{conversation_id}.{message_id}"


def queue_status_deleted(pipe: Any, status: Mapping[str, Any]) -> None:
    """Queues the deletion of a deleted status's attachments (files and records: a job)."""
    if status.get("media"):
        jobs.enqueue(pipe, delete_job(int(status["uid"]), media_ids_of(status)))


def delete_job(uid: int, media_ids: list[int]) -> jobs.Job:
    return ("media_delete", {"uid": uid, "ids": media_ids})


def delete_files(names: Iterable[str]) -> None:
    for name in names:
        with contextlib.suppress(FileNotFoundError):
            default_storage.delete(name)


def delete_media(uid: int, media_ids: Sequence[int]) -> int:
    """Deletes `uid`'s attachments `media_ids`: their files, then their records (so a
    retry after a crash finds what is left); how many there were. Idempotent."""
    if not media_ids:
        return 0
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    for media_id in media_ids:
        pipe.hmget(keys.attachment_key(uid, media_id), layout.TOKEN, layout.EXTENSION)
    for token, extension in pipe.execute():
        delete_files(
            layout.stored_names({layout.TOKEN: token or "", layout.EXTENSION: extension or ""})
        )
    return int(scripts.delete_media(conn, uid=uid, media_ids=list(media_ids)))


@dataclass(frozen=True)
class StoredPicture:
    """A picture from elsewhere (a link card's) redrawn and stored as uploads are: its
    storage names, URLs, size in pixels and blurhash. Delete it with `delete_picture`."""

    name: str
    preview_name: str
    url: str
    preview_url: str
    width: int
    height: int
    blurhash: str


def store_picture(data: bytes, *, max_bytes: int = pipeline.MAX_BYTES) -> StoredPicture:
    """Checks, redraws (upright, no metadata, a 640 px preview, a blurhash) and stores a
    picture fetched from elsewhere, in the calling process (a worker's job); MediaError
    if it isn't an acceptable picture."""
    try:
        pipeline.check_picture(data)
        redrawn = pipeline.redraw(data, max_bytes)
    except BadPicture as error:
        raise MediaError(str(error)) from None
    token = secrets.token_hex(16)
    name, small = layout.file_name(token, redrawn.extension), layout.preview_name(token)
    default_storage.save(name, ContentFile(redrawn.data))
    default_storage.save(small, ContentFile(redrawn.preview))
    width, height = redrawn.size
    return StoredPicture(
        name,
        small,
        default_storage.url(name),
        default_storage.url(small),
        width,
        height,
        redrawn.blurhash,
    )


def delete_picture(picture_names: Iterable[str]) -> None:
    """Deletes a stored picture's files (its `name` and `preview_name`)."""
    delete_files(picture_names)


def temporary_dir() -> tempfile.TemporaryDirectory[str]:
    """A private temporary directory for the worker's files."""
    return tempfile.TemporaryDirectory(prefix="socialsite-media-", dir=os.environ.get("TMPDIR"))
