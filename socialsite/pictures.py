"""Pictures people upload, checked and redrawn with Pillow: `read_header` weighs one
against its budget (bytes, pixels from the header, formats) without decoding it, cheap
enough for the request's own slot; `squares` decodes and redraws it, the costly part,
for `socialsite.offslot.run` to do in a process of its own.

Nothing of an upload is kept as sent: a file that only claims to be a picture fails to
decode, and a real one is drawn anew, so no metadata or trailing bytes survive. This
module imports Pillow alone (no Django), so the processes that redraw start light."""

import io
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

# Pillow's own refusals of a file it can't read, for whatever reason it can't.
UNREADABLE = (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError)
# WebP's quality for redrawn pictures (Pillow's default, 80, blurs small faces).
WEBP_QUALITY = 85


class BadPicture(ValueError):
    """An upload refused, saying why in words for its sender."""


@dataclass(frozen=True)
class Budget:
    """What a kind of upload may be: at most `max_bytes` of file, `max_pixels` of canvas
    (width x height), in one of `formats` (Pillow's names)."""

    max_bytes: int
    max_pixels: int
    formats: frozenset[str] = frozenset({"JPEG", "PNG", "WEBP"})


@dataclass(frozen=True)
class Header:
    """What a picture's header says: its format and its canvas in pixels."""

    format: str
    width: int
    height: int


def said(budget: Budget) -> str:
    """The budget's formats in words: "JPEG, PNG or WebP"."""
    names = [{"WEBP": "WebP"}.get(name, name) for name in sorted(budget.formats)]
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def read_header(data: bytes, budget: Budget) -> Header:
    """The header of the picture in `data`, read without decoding a pixel; BadPicture
    if the file is empty, too big, not a picture, of a format outside `budget` or of a
    canvas over its pixels (a small file may claim a huge one: a decompression bomb)."""
    if len(data) > budget.max_bytes:
        raise BadPicture(f"A picture is at most {budget.max_bytes // (1024 * 1024)} MB.")
    if not data:
        raise BadPicture("The file is empty.")
    try:
        # Only the budget's parsers read it: none of Pillow's other formats is exposed.
        with Image.open(io.BytesIO(data), formats=sorted(budget.formats)) as probe:
            header = Header(str(probe.format), probe.width, probe.height)
    except Image.DecompressionBombError:
        # Pillow's own bound (twice Image.MAX_IMAGE_PIXELS) ends the read first.
        raise BadPicture("That picture has too many pixels.") from None
    except UNREADABLE:
        raise BadPicture(f"That file is not a picture we can read ({said(budget)}).") from None
    if header.width * header.height > budget.max_pixels:
        raise BadPicture("That picture has too many pixels.")
    return header


def decode(data: bytes, budget: Budget, *, at_least: int = 0) -> Image.Image:
    """The picture in `data`, weighed by `read_header` and then fully decoded (JPEG at a
    lower scale when both sides stay `at_least` pixels); BadPicture saying why it isn't
    an acceptable one."""
    read_header(data, budget)
    try:
        picture = Image.open(io.BytesIO(data), formats=sorted(budget.formats))
        if at_least and picture.format == "JPEG":
            # libjpeg decodes straight to a half, quarter or eighth when asked: a
            # 40-megapixel JPEG for a 400 px square is read at a fraction of the cost.
            picture.draft(picture.mode, (at_least, at_least))
        picture.load()
    except MemoryError:
        raise BadPicture("That picture is too big to read.") from None
    except UNREADABLE:
        raise BadPicture(f"That file is not a picture we can read ({said(budget)}).") from None
    return picture


def square(picture: Image.Image, side: int) -> Image.Image:
    """`picture` cut to a centred square and scaled to `side` pixels a side (RGB or RGBA)."""
    shortest = min(picture.size)
    left, top = (picture.width - shortest) // 2, (picture.height - shortest) // 2
    cut = picture.crop((left, top, left + shortest, top + shortest))
    if cut.mode not in ("RGB", "RGBA"):
        # Palettes, bilevel and 16-bit greys can't be resampled as they are; converted
        # after the crop, never the whole canvas twice.
        has_alpha = "A" in cut.getbands() or "transparency" in cut.info
        cut = cut.convert("RGBA" if has_alpha else "RGB")
    # reducing_gap: a cheap box reduction to near the size first, then Lanczos; the
    # result is indistinguishable at these sizes and ~5x cheaper from 40 megapixels.
    return cut.resize((side, side), Image.Resampling.LANCZOS, reducing_gap=3.0)


def squares(data: bytes, budget: Budget, sides: tuple[int, ...]) -> dict[int, bytes]:
    """The picture in `data` redrawn as a centred square in WebP at each of `sides`
    (pixels a side): {side: WebP bytes}. BadPicture if it isn't an acceptable one. The
    costly part: run it through socialsite.offslot, never in a request's slot."""
    source = decode(data, budget, at_least=max(sides))
    drawn = {}
    try:
        # Each size from the next bigger one: the big canvas is resampled once.
        for side in sorted(sides, reverse=True):
            source = square(source, side)
            out = io.BytesIO()
            source.save(out, "WEBP", quality=WEBP_QUALITY)
            drawn[side] = out.getvalue()
    except MemoryError:
        raise BadPicture("That picture is too big to read.") from None
    return drawn
