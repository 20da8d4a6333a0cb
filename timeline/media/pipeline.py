"""Pictures attached to statuses, checked and redrawn with Pillow. `check_picture` weighs
an upload from its header and its bytes (size, canvas, format against its stated type,
nothing hidden after the picture's end), cheap enough for the request's own slot;
`redraw` decodes it, turns it upright, strips its metadata (EXIF, GPS, comments) by
drawing it anew, and makes its preview and blurhash: the costly part, for
`socialsite.offslot.run` or the worker.

This module imports Pillow and blurhash alone (no Django), so the processes that redraw
start light."""

import io
import warnings
from dataclasses import dataclass

import blurhash
from PIL import Image, ImageOps

from socialsite import pictures
from socialsite.pictures import BadPicture, Budget

MAX_BYTES = 16 * 1024 * 1024
MAX_PIXELS = 40_000_000
FORMATS = frozenset({"JPEG", "PNG", "WEBP", "GIF"})
# A redrawn picture keeps at most this canvas (4096 x 4096): a phone's 48-megapixel
# photo is served at a size screens show, and its usual 12 megapixels are kept as they
# are (resampling 12 to Mastodon's 8.3 cost twice Pillow's decode and encode together).
KEPT_PIXELS = 4096 * 4096
PREVIEW_SIDE = 640
JPEG_QUALITY = 85
# The blurhash is worked out from a small copy: the placeholder is a handful of colours.
BLURHASH_SIDE = 64
BLURHASH_COMPONENTS = (4, 3)

# Pillow's format -> the media type it is sent as, the file extension kept, and the
# extensions a file of it may be named with.
MEDIA_TYPES = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "GIF": "image/gif"}
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "png"}
NAMED = {
    "JPEG": {"jpg", "jpeg", "jpe", "jfif"},
    "PNG": {"png"},
    "WEBP": {"webp"},
    "GIF": {"gif"},
}
# The ends the formats close their files with: bytes past them (a ZIP or a script
# appended, a "polyglot") are refused rather than silently dropped.
PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"


def budget() -> Budget:
    return Budget(MAX_BYTES, MAX_PIXELS, FORMATS)


@dataclass(frozen=True)
class Redrawn:
    """A picture drawn anew: its file (`extension`) and preview (WebP) bytes, their
    sizes in pixels and its blurhash."""

    data: bytes
    extension: str
    size: tuple[int, int]
    preview: bytes
    preview_size: tuple[int, int]
    blurhash: str


def ends_cleanly(data: bytes, image_format: str) -> bool:
    """Whether `data` ends where a file of `image_format` ends (nothing appended)."""
    if image_format == "JPEG":
        # Some encoders pad with zeros after the end marker.
        return data.rstrip(b"\x00").endswith(b"\xff\xd9")
    if image_format == "PNG":
        return data.endswith(PNG_END)
    if image_format == "GIF":
        return data.endswith(b"\x3b")
    if image_format == "WEBP":
        declared = int.from_bytes(data[4:8], "little") + 8
        return len(data) in (declared, declared + 1)
    return True


def looks_cut_short(data: bytes, image_format: str) -> bool:
    """Whether `data`, which doesn't end as `image_format` ends, has no end at all."""
    if image_format == "JPEG":
        return b"\xff\xd9" not in data
    if image_format == "PNG":
        return b"IEND" not in data
    if image_format == "WEBP":
        return int.from_bytes(data[4:8], "little") + 8 > len(data)
    return True


def check_type(detected: str, media_type: str | None, extension: str | None) -> None:
    """BadPicture if the upload's stated media type or file extension names another
    format than its content (`detected`, Pillow's name)."""
    stated = (media_type or "").split(";")[0].strip().lower()
    said = {"WEBP": "WebP"}.get(detected, detected)
    aliases = {"image/jpg", "image/pjpeg"} if detected == "JPEG" else set()
    if stated.startswith(("image/", "video/")) and stated not in {MEDIA_TYPES[detected], *aliases}:
        raise BadPicture(f"That file is a {said} picture, not {stated}.")
    if extension and extension.lower() not in NAMED[detected] and extension.isalnum():
        raise BadPicture(f"That file is a {said} picture, not a .{extension.lower()} file.")


def check_picture(
    data: bytes, *, media_type: str | None = None, extension: str | None = None
) -> pictures.Header:
    """The header of the picture in `data`, checked without decoding a pixel; BadPicture
    saying why for a file too big, of too many pixels (a decompression bomb), not a
    picture, not the type it says, or with bytes after its end (a polyglot)."""
    header = pictures.read_header(data, budget())
    check_type(header.format, media_type, extension)
    if not ends_cleanly(data, header.format):
        if looks_cut_short(data, header.format):
            raise BadPicture("That picture is cut short (truncated).")
        raise BadPicture("That picture has something else appended to it.")
    return header


def is_animated(data: bytes) -> bool:
    """Whether the GIF in `data` has more than one frame (it becomes a gifv)."""
    with Image.open(io.BytesIO(data), formats=["GIF"]) as probe:
        return bool(getattr(probe, "is_animated", False))


def _fit(picture: Image.Image, pixels: int) -> Image.Image:
    if picture.width * picture.height <= pixels:
        return picture
    scale = (pixels / (picture.width * picture.height)) ** 0.5
    size = (max(1, int(picture.width * scale)), max(1, int(picture.height * scale)))
    # Bicubic: at these sizes no eye tells it from Lanczos, at two thirds of its cost.
    return picture.resize(size, Image.Resampling.BICUBIC, reducing_gap=2.0)


def _preview(picture: Image.Image) -> Image.Image:
    scale = min(1.0, PREVIEW_SIDE / max(picture.size))
    size = (max(1, round(picture.width * scale)), max(1, round(picture.height * scale)))
    if size == picture.size:
        return picture.copy()
    # A box reduction to near the size first (cheap), then Lanczos on what is left.
    return picture.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)


def blurhash_of(picture: Image.Image) -> str:
    """The blurhash of `picture` (from a 64 px copy)."""
    small = picture.convert("RGB")
    small.thumbnail((BLURHASH_SIDE, BLURHASH_SIDE))
    x, y = BLURHASH_COMPONENTS
    with warnings.catch_warnings():
        # The library reads the pixels by Image.getdata, which Pillow 14 renames.
        warnings.simplefilter("ignore", DeprecationWarning)
        return str(blurhash.encode(small, x_components=x, y_components=y))


def _encoded(picture: Image.Image, image_format: str) -> tuple[bytes, str]:
    """`picture` in the file format its upload had (JPEG, PNG, WebP; a still GIF as
    PNG), with nothing of the upload's metadata but its colour profile."""
    out = io.BytesIO()
    icc = picture.info.get("icc_profile")
    extra = {"icc_profile": icc} if icc else {}
    if image_format == "JPEG":
        rgb = picture if picture.mode in ("RGB", "L") else picture.convert("RGB")
        rgb.save(out, "JPEG", quality=JPEG_QUALITY, optimize=False, **extra)
    elif image_format == "WEBP":
        picture.save(out, "WEBP", quality=JPEG_QUALITY, **extra)
    else:
        picture.save(out, "PNG", compress_level=6, **extra)
    return out.getvalue(), EXTENSIONS[image_format]


def upright(picture: Image.Image) -> Image.Image:
    """`picture` turned as its EXIF orientation says, in a mode that can be resampled."""
    # In place: the decoded picture is ours alone (a copy of 12 megapixels costs ~6 ms).
    turned = picture
    ImageOps.exif_transpose(turned, in_place=True)
    if turned.mode not in ("RGB", "RGBA", "L", "LA"):
        has_alpha = "A" in turned.getbands() or "transparency" in turned.info
        icc = turned.info.get("icc_profile")
        turned = turned.convert("RGBA" if has_alpha else "RGB")
        if icc:
            turned.info["icc_profile"] = icc
    return turned


def redraw_image(picture: Image.Image, image_format: str) -> Redrawn:
    """A decoded picture drawn anew: upright, at most KEPT_PIXELS, its preview, its
    blurhash. Nothing of the source's metadata but its colour profile is drawn."""
    try:
        kept = _fit(upright(picture), KEPT_PIXELS)
        data, extension = _encoded(kept, image_format)
        preview = _preview(kept)
        out = io.BytesIO()
        preview.save(out, "WEBP", quality=pictures.WEBP_QUALITY)
        return Redrawn(
            data, extension, kept.size, out.getvalue(), preview.size, blurhash_of(preview)
        )
    except MemoryError:
        raise BadPicture("That picture is too big to read.") from None


def redraw(data: bytes, max_bytes: int = MAX_BYTES) -> Redrawn:
    """The picture in `data` decoded (a truncated file is refused) and drawn anew
    (`redraw_image`); BadPicture if it isn't an acceptable one. The costly part: run
    it through socialsite.offslot, never in a request's slot."""
    picture = pictures.decode(data, Budget(max_bytes, MAX_PIXELS, FORMATS))
    return redraw_image(picture, str(picture.format))


def redraw_still(path: str) -> Redrawn:
    """A video's poster frame (a PNG file ffmpeg wrote at `path`) as its preview: the
    `data` of the result is the poster in JPEG, the preview WebP."""
    with Image.open(path, formats=["PNG"]) as frame:
        frame.load()
        return redraw_image(frame, "JPEG")
