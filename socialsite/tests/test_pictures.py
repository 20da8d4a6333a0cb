import io

import pytest
from PIL import Image

from socialsite import pictures

BUDGET = pictures.Budget(max_bytes=2 * 1024 * 1024, max_pixels=40_000_000)


def encoded(image: Image.Image, kind: str = "PNG") -> bytes:
    out = io.BytesIO()
    image.save(out, kind)
    return out.getvalue()


@pytest.mark.parametrize(
    ("image", "kind", "alpha"),
    [
        (Image.new("1", (300, 500), 1), "PNG", False),
        (Image.new("L", (500, 300), 128), "PNG", False),
        (Image.new("LA", (500, 500), (128, 10)), "PNG", True),
        (Image.new("P", (500, 500), 3), "PNG", False),
        (Image.new("I;16", (500, 500), 40_000), "PNG", False),
        (Image.new("RGBA", (900, 500), (10, 20, 30, 40)), "PNG", True),
        (Image.new("CMYK", (500, 500), (0, 255, 0, 0)), "JPEG", False),
        # Read at a lower scale by libjpeg (draft), never below the biggest square.
        (Image.new("RGB", (4000, 3000), (200, 30, 30)), "JPEG", False),
        (Image.new("RGB", (420, 1000), (200, 30, 30)), "JPEG", False),
        (Image.new("RGBA", (500, 500), (10, 20, 30, 40)), "WEBP", True),
    ],
)
def test_every_kind_of_picture_is_redrawn_as_squares_of_each_size(image, kind, alpha):
    drawn = pictures.squares(encoded(image, kind), BUDGET, (400, 96))
    assert set(drawn) == {400, 96}
    for side, data in drawn.items():
        redrawn = Image.open(io.BytesIO(data))
        assert (redrawn.format, redrawn.size) == ("WEBP", (side, side))
        assert (redrawn.mode == "RGBA") == alpha


def test_a_picture_is_redrawn_with_its_colours():
    drawn = pictures.squares(encoded(Image.new("RGB", (800, 500), (200, 30, 30))), BUDGET, (96,))
    red, green, blue = Image.open(io.BytesIO(drawn[96])).convert("RGB").getpixel((48, 48))
    assert red > 180 and green < 50 and blue < 50


def test_the_header_is_read_without_decoding_and_weighed_against_the_budget():
    data = encoded(Image.new("RGB", (600, 400)))
    assert pictures.read_header(data, BUDGET) == pictures.Header("PNG", 600, 400)
    small = pictures.Budget(max_bytes=len(data), max_pixels=600 * 400 - 1)
    with pytest.raises(pictures.BadPicture, match="too many pixels"):
        pictures.read_header(data, small)
    gif = encoded(Image.new("RGB", (6, 4)), "GIF")
    with pytest.raises(pictures.BadPicture, match=r"can read \(JPEG, PNG or WebP\)"):
        pictures.read_header(gif, BUDGET)
    with pytest.raises(pictures.BadPicture, match=r"not a picture we can read \(PNG\)"):
        pictures.read_header(
            encoded(Image.new("RGB", (6, 4)), "JPEG"),
            pictures.Budget(max_bytes=1000, max_pixels=100, formats=frozenset({"PNG"})),
        )
