"""Avatars: an uploaded picture checked from its header, then decoded and redrawn as
squares in WebP (socialsite.pictures) in a process of its own, off the request's slot
(socialsite.offslot), and stored through Django's storage API
(settings.STORAGES["default"]: files under MEDIA_ROOT, in the var directory, unless a
django-storages backend is set).

Nothing of the upload is stored as sent (see socialsite.pictures). Each upload gets new
file names, so a browser never shows a cached old picture, and the old files are
deleted."""

import secrets

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from socialsite import offslot, pictures
from socialsite.jinja2 import kept_static

AVATAR_MAX_BYTES = 2 * 1024 * 1024
# Refused from the header, before decoding: a small file can claim a huge canvas (a
# decompression bomb), and redrawing 40 megapixels costs ~0.5 s of CPU.
AVATAR_MAX_PIXELS = 40_000_000
ACCEPTED_FORMATS = frozenset({"JPEG", "PNG", "WEBP"})
# The profile's picture, and the one on status cards and people lists.
SIZES = (400, 96)
DEFAULT_AVATAR = "img/avatar.svg"


class BadAvatar(pictures.BadPicture):
    """An avatar refused, saying why."""


def avatar_name(uid: int, token: str, size: int) -> str:
    """The storage name of one size of an avatar."""
    return f"avatars/{uid}/{token}-{size}.webp"


def avatar_url(uid: int, token: str | None, size: int = 96) -> str:
    """The URL of `uid`'s avatar `token` (a profile's "avatar" field) at `size`, or of
    the default avatar for none."""
    if not token:
        return kept_static(DEFAULT_AVATAR)
    return default_storage.url(avatar_name(uid, token, size))


def budget() -> pictures.Budget:
    """What an avatar may be (read at call time, so tests may lower it)."""
    return pictures.Budget(AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS, ACCEPTED_FORMATS)


def drawn(data: bytes) -> dict[int, bytes]:
    """The picture in `data` as avatar files, {size: WebP bytes}: checked from its header
    here, redrawn off the request's slot. BadAvatar if it isn't an acceptable picture;
    offslot.Busy if no process was free for it in time."""
    try:
        pictures.read_header(data, budget())
        return offslot.run(pictures.squares, data, budget(), SIZES)
    except pictures.BadPicture as error:
        raise BadAvatar(str(error)) from None
    except offslot.Overrun:
        raise BadAvatar("That picture takes too long to read.") from None


def store(uid: int, data: bytes) -> str:
    """Checks, redraws and stores an uploaded picture as `uid`'s avatar files; returns
    their token. BadAvatar (nothing stored) if it isn't an acceptable picture."""
    files = drawn(data)
    token = secrets.token_hex(8)
    for size, webp in files.items():
        default_storage.save(avatar_name(uid, token, size), ContentFile(webp))
    return token


def delete(uid: int, token: str) -> None:
    """Deletes the files of one of `uid`'s avatars (no error if they are gone)."""
    for size in SIZES:
        default_storage.delete(avatar_name(uid, token, size))
