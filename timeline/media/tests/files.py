"""Files the media tests upload, made on the spot: pictures by Pillow, videos by ffmpeg."""

import io
import subprocess
import tempfile
from pathlib import Path

from PIL import Image


def jpeg(size=(800, 600), *, color=(200, 30, 30), exif=None, quality=90) -> bytes:
    out = io.BytesIO()
    extra = {"exif": exif} if exif is not None else {}
    Image.new("RGB", size, color).save(out, "JPEG", quality=quality, **extra)
    return out.getvalue()


def noisy_jpeg(size=(1200, 900), quality=95) -> bytes:
    """A JPEG of random pixels: it doesn't compress, so its size is about its canvas's."""
    import os

    out = io.BytesIO()
    Image.frombytes("RGB", size, os.urandom(size[0] * size[1] * 3)).save(
        out, "JPEG", quality=quality
    )
    return out.getvalue()


def gps_exif(orientation: int = 6) -> bytes:
    """EXIF with a GPS position, a camera's make and an orientation (6: turn 90°)."""
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x0112] = orientation  # Orientation
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)}  # GPSInfo
    return exif.tobytes()


def png(size=(300, 200), mode="RGBA") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (10, 200, 10, 128) if mode == "RGBA" else (10, 200, 10)).save(out, "PNG")
    return out.getvalue()


def animated_gif(frames: int = 6, size=(64, 48)) -> bytes:
    images = [Image.new("RGB", size, (i * 40 % 256, 80, 160)) for i in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=100, loop=0)
    return out.getvalue()


def bomb_png(side: int = 100_000) -> bytes:
    """A tiny PNG whose header claims a canvas of side x side pixels."""
    small = png((10, 10), "RGB")
    # IHDR's width and height are bytes 16..24 of a PNG.
    import struct
    import zlib

    head = bytearray(small)
    head[16:24] = struct.pack(">II", side, side)
    crc = zlib.crc32(bytes(head[12:29])) & 0xFFFFFFFF
    head[29:33] = struct.pack(">I", crc)
    return bytes(head)


def video(
    seconds: float = 1.0, *, container: str = "mp4", size: str = "64x48", rate: int = 10
) -> bytes:
    """A short test-pattern video with a tone, made by ffmpeg."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / f"v.{container}"
        codec = (
            ["-c:v", "libvpx", "-c:a", "libvorbis"] if container == "webm" else ["-c:v", "mpeg4"]
        )
        subprocess.run(
            [
                "ffmpeg", "-v", "error", "-y",
                "-f", "lavfi", "-i", f"testsrc=size={size}:rate={rate}:duration={seconds}",
                "-f", "lavfi", "-i", f"sine=duration={seconds}",
                *codec, "-shortest", str(out),
            ],
            check=True,
        )  # fmt: skip
        return out.read_bytes()
