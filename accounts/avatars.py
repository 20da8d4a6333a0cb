"""Avatars: an uploaded picture checked by decoding it, re-encoded and resized with
Pillow, and stored through Django's storage API (settings.STORAGES["default"]: files
under MEDIA_ROOT, in the var directory, unless a django-storages backend is set).

Nothing of the upload is stored as sent: a file that only claims to be a PNG (a
script with a PNG's name or type) fails to decode, and a real picture is drawn anew,
so no metadata or trailing bytes survive. Each upload gets new file names, so a
browser never shows a cached old picture, and the old files are deleted."""

import io
import secrets

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, UnidentifiedImageError

from socialsite.jinja2 import kept_static

AVATAR_MAX_BYTES = 2 * 1024 * 1024
# Refused before decoding: a small file can claim a huge canvas (a decompression bomb).
AVATAR_MAX_PIXELS = 40_000_000
ACCEPTED_FORMATS = {"JPEG", "PNG", "WEBP"}
# The profile's picture, and the one on status cards and people lists.
SIZES = (400, 96)
DEFAULT_AVATAR = "img/avatar.svg"


class BadAvatar(ValueError):
    pass


def avatar_name(uid: int, token: str, size: int) -> str:
    """The storage name of one size of an avatar."""
    return f"avatars/{uid}/{token}-{size}.webp"


def avatar_url(uid: int, token: str | None, size: int = 96) -> str:
    """The URL of `uid`'s avatar `token` (a profile's "avatar" field) at `size`, or of
    the default avatar for none."""
    if not token:
        return kept_static(DEFAULT_AVATAR)
    return default_storage.url(avatar_name(uid, token, size))


def decode(data: bytes) -> Image.Image:
    """The picture in `data`, fully decoded, or BadAvatar saying why it isn't one."""
    if len(data) > AVATAR_MAX_BYTES:
        raise BadAvatar(f"A picture is at most {AVATAR_MAX_BYTES // (1024 * 1024)} MB.")
    if not data:
        raise BadAvatar("The file is empty.")
    try:
        with Image.open(io.BytesIO(data)) as probe:
            kind = probe.format
            if kind not in ACCEPTED_FORMATS:
                raise BadAvatar("Pictures are JPEG, PNG or WebP.")
            if probe.width * probe.height > AVATAR_MAX_PIXELS:
                raise BadAvatar("That picture has too many pixels.")
            probe.verify()
        picture = Image.open(io.BytesIO(data))
        picture.load()
    except BadAvatar:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise BadAvatar("That file is not a picture we can read (JPEG, PNG or WebP).") from None
    return picture


def resized(picture: Image.Image, size: int) -> bytes:
    """`picture` cut to a centred square, `size` pixels a side, as WebP."""
    side = min(picture.size)
    left, top = (picture.width - side) // 2, (picture.height - side) // 2
    square = picture.convert("RGBA").crop((left, top, left + side, top + side))
    out = io.BytesIO()
    square.resize((size, size), Image.Resampling.LANCZOS).save(out, "WEBP", quality=85)
    return out.getvalue()


def store(uid: int, data: bytes) -> str:
    """Decodes, resizes and stores an uploaded picture as `uid`'s avatar files; returns
    their token. BadAvatar (nothing stored) if it isn't an acceptable picture."""
    picture = decode(data)
    token = secrets.token_hex(8)
    for size in SIZES:
        default_storage.save(avatar_name(uid, token, size), ContentFile(resized(picture, size)))
    return token


def delete(uid: int, token: str) -> None:
    """Deletes the files of one of `uid`'s avatars (no error if they are gone)."""
    for size in SIZES:
        default_storage.delete(avatar_name(uid, token, size))
