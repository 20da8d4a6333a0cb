"""Pictures for tests and the bench."""

import io
import math

from PIL import Image


def costliest_allowed(max_pixels: int) -> bytes:
    """The costliest picture to redraw of those under `max_pixels`, as far as measured
    (socialsite.pictures): a blank RGBA PNG, the biggest square canvas allowed, a few
    hundred KB of file (39.99 megapixels in 154 KB at 40 megapixels)."""
    side = math.isqrt(max_pixels)
    out = io.BytesIO()
    Image.new("RGBA", (side, side), (0, 0, 0, 0)).save(out, "PNG", optimize=True)
    return out.getvalue()
