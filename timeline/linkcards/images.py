"""A card's picture: fetched from the page, then checked and redrawn by the uploads'
own pipeline (timeline.media.pipeline: header and canvas weighed before decoding, a
file cut short or with something appended refused, drawn anew upright with no EXIF or
GPS), its preview (at most 640 px a side, WebP) kept with its blurhash, and stored
through Django's storage API under a random name."""

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from ..media import pipeline


@dataclass(frozen=True)
class CardImage:
    """A stored card picture: its storage name, URL, size in pixels and blurhash."""

    name: str
    url: str
    width: int
    height: int
    blurhash: str


def redraw_card_image(data: bytes) -> pipeline.Redrawn:
    """The picture in `data` checked and redrawn as an upload is; pictures.BadPicture if
    it isn't an acceptable one (of at most LINK_CARD_IMAGE_MAX_BYTES)."""
    pipeline.check_picture(data)
    return pipeline.redraw(data, settings.LINK_CARD_IMAGE_MAX_BYTES)


def store_card_image(data: bytes) -> CardImage:
    """Redraws and stores a card's picture (its preview size: a card shows no more);
    pictures.BadPicture if it isn't one."""
    redrawn = redraw_card_image(data)
    name = default_storage.save(
        f"cards/{secrets.token_urlsafe(24)}.webp", ContentFile(redrawn.preview)
    )
    width, height = redrawn.preview_size
    return CardImage(name, default_storage.url(name), width, height, redrawn.blurhash)


def delete_card_image(name: str) -> None:
    """Deletes a stored card picture (nothing if it is gone already)."""
    if name.startswith("cards/"):
        default_storage.delete(name)
