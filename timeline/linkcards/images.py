"""A card's picture: fetched from the page, checked and redrawn as uploads are (nothing
of the remote file is kept as sent: no metadata, no trailing bytes), at most
LINK_CARD_IMAGE_SIDE pixels a side, stored through Django's storage API under a random
name. `redraw_card_image` is the one place the picture is decoded and re-encoded."""

import io
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageOps

from socialsite import pictures

CARD_IMAGE_FORMATS = frozenset({"JPEG", "PNG", "WEBP", "GIF"})
CARD_IMAGE_MAX_PIXELS = 40_000_000


@dataclass(frozen=True)
class CardImage:
    """A stored card picture: its storage name, URL and size in pixels."""

    name: str
    url: str
    width: int
    height: int


def redraw_card_image(data: bytes) -> tuple[bytes, int, int]:
    """The picture in `data` redrawn as WebP within LINK_CARD_IMAGE_SIDE a side (oriented
    by its EXIF, then stripped of it), with its width and height; pictures.BadPicture if
    it isn't a picture within the budget. An upload's pipeline (timeline.media) does the
    same for attachments; a card needs only this one size."""
    budget = pictures.Budget(
        settings.LINK_CARD_IMAGE_MAX_BYTES, CARD_IMAGE_MAX_PIXELS, CARD_IMAGE_FORMATS
    )
    side = settings.LINK_CARD_IMAGE_SIDE
    picture = pictures.decode(data, budget, at_least=side)
    picture = ImageOps.exif_transpose(picture) or picture
    if picture.mode not in ("RGB", "RGBA"):
        has_alpha = "A" in picture.getbands() or "transparency" in picture.info
        picture = picture.convert("RGBA" if has_alpha else "RGB")
    picture.thumbnail((side, side), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, "WEBP", quality=pictures.WEBP_QUALITY)
    return out.getvalue(), picture.width, picture.height


def store_card_image(data: bytes) -> CardImage:
    """Redraws and stores a card's picture; pictures.BadPicture if it isn't one."""
    redrawn, width, height = redraw_card_image(data)
    name = default_storage.save(f"cards/{secrets.token_urlsafe(24)}.webp", ContentFile(redrawn))
    return CardImage(name, default_storage.url(name), width, height)


def delete_card_image(name: str) -> None:
    """Deletes a stored card picture (nothing if it is gone already)."""
    if name.startswith("cards/"):
        default_storage.delete(name)
