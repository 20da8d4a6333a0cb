"""A local site's pages and pictures for the link cards' tests."""

import io

from django.core.management import call_command
from PIL import Image

from socialsite.testing.pages import html_page


def jpeg_with_gps(width: int = 1200, height: int = 800) -> bytes:
    """A JPEG carrying EXIF with a GPS position and a camera, as phones write them."""
    picture = Image.new("RGB", (width, height), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0112] = 1  # Orientation
    exif.get_ifd(0x8825)[2] = (51.0, 30.0, 12.0)  # GPSLatitude
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


def og_page(title: str = "A page", image: str = "/picture.jpg", extra: str = "") -> bytes:
    return html_page(
        f'<meta property="og:title" content="{title}">'
        '<meta property="og:description" content="What the page says about itself.">'
        '<meta property="og:site_name" content="Example News">'
        f'<meta property="og:image" content="{image}">'
        '<meta property="og:image:alt" content="A red square">'
        f"<title>Ignored when og:title is there</title>{extra}"
    )


def run_jobs() -> None:
    call_command("worker", burst=True)
