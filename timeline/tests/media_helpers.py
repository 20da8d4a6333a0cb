"""Statuses with media in the site's page tests: attachments made as an upload leaves
them (ready, or still processing), and a status posted with them."""

import io

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image

from socialsite.redis import get_redis
from timeline.media import keys, layout
from timeline.posting import services as posting

# A valid blurhash (blurha.sh's own example).
BLURHASH = "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
_next = iter(range(1, 1_000_000))


def _picture(size: tuple[int, int], image_format: str) -> ContentFile:
    out = io.BytesIO()
    Image.new("RGB", size, (40, 120, 200)).save(out, image_format)
    return ContentFile(out.getvalue())


def uploaded(
    uid: int, *, kind: str = "image", alt: str = "", ready: bool = True, files: bool = False
) -> int:
    """An attachment of `uid`'s as an upload leaves it: its id. With `files`, a picture's
    files are stored too (a 1200x800 JPEG and its 640x427 preview)."""
    media_id = next(_next)
    token = f"tok{uid}x{media_id}"
    fields = {layout.KIND: kind, layout.TOKEN: token, layout.CREATED: 1}
    if files:
        default_storage.delete(layout.file_name(token, "jpg"))
        default_storage.delete(layout.preview_name(token))
        default_storage.save(layout.file_name(token, "jpg"), _picture((1200, 800), "JPEG"))
        default_storage.save(layout.preview_name(token), _picture((640, 427), "WEBP"))
    if ready:
        extension = "jpg" if kind == "image" else "mp4"
        fields.update(
            layout.ready_fields(
                extension=extension,
                size=(1200, 800),
                preview=(640, 427),
                blurhash=BLURHASH,
                stored_bytes=1000,
            )
        )
    else:
        fields[layout.STATE] = "processing"
    if alt:
        fields[layout.DESCRIPTION] = alt
    get_redis().hset(keys.attachment_key(uid, media_id), mapping=fields)
    return media_id


def post_with_media(uid: int, message: str, media_ids: list[int], **data) -> int:
    """Posts `message` with the attachments `media_ids`: the status's id."""
    status_id = posting.post_status(uid, message, media=",".join(map(str, media_ids)), **data)
    assert status_id is not None
    return status_id
