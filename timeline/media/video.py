"""Videos and animated GIFs: `check_video` weighs an upload (size, container from its
first bytes against its stated type, then ffprobe's reading of its length and streams),
and `transcode` makes it an H.264 MP4 with a poster frame, with Debian's `ffmpeg`, in
the worker (never a request: a minute of video is seconds of CPU).

ffprobe and ffmpeg run as child processes at the lowest CPU priority, with time limits;
the worker writes the upload and the results to a temporary directory."""

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from socialsite.pictures import BadPicture

MAX_BYTES = 40 * 1024 * 1024
MAX_SECONDS = 120.0
MAX_PIXELS = 40_000_000
# The transcoded video's longer side, at most (1080p's).
KEPT_SIDE = 1920
PROBE_SECONDS = 20
TRANSCODE_SECONDS = 600
# Container -> the media types it may be stated as, and the extensions it may be named.
CONTAINERS = {
    "mp4": ({"video/mp4", "video/x-m4v"}, {"mp4", "m4v"}),
    "mov": ({"video/quicktime"}, {"mov", "qt"}),
    "webm": ({"video/webm"}, {"webm"}),
}


class BadVideo(BadPicture):
    """A video (or animated GIF) refused, saying why."""


@dataclass(frozen=True)
class Probe:
    """What ffprobe read of a video: its length in seconds and its frame's pixels."""

    duration: float
    width: int
    height: int


def tools_missing() -> str | None:
    """The name of the first of ffmpeg and ffprobe not on PATH, or None."""
    return next((tool for tool in ("ffprobe", "ffmpeg") if shutil.which(tool) is None), None)


def container_of(data: bytes) -> str | None:
    """The container `data` starts as ("mp4", "mov", "webm"), or None."""
    if data[4:8] == b"ftyp":
        return "mov" if data[8:12] == b"qt  " else "mp4"
    if data[:4] == b"\x1a\x45\xdf\xa3":
        return "webm"
    return None


def check_container(data: bytes, media_type: str | None, extension: str | None) -> str:
    """The container of the video in `data`; BadVideo if it is too big, not a video we
    take, or stated (type, file name) as something else."""
    if len(data) > MAX_BYTES:
        raise BadVideo(f"A video is at most {MAX_BYTES // (1024 * 1024)} MB.")
    found = container_of(data)
    if found is None:
        raise BadVideo("That file is not a video we can read (MP4, WebM or MOV).")
    types, names = CONTAINERS[found]
    stated = (media_type or "").split(";")[0].strip().lower()
    # MP4 and MOV are one family: a phone's .mov is often an MP4 brand and back.
    family = types | (CONTAINERS["mov"][0] | CONTAINERS["mp4"][0] if found != "webm" else set())
    if stated.startswith(("video/", "image/")) and stated not in family:
        raise BadVideo(f"That file is a {found.upper()} video, not {stated}.")
    if found != "webm":
        names = CONTAINERS["mp4"][1] | CONTAINERS["mov"][1]
    if extension and extension.isalnum() and extension.lower() not in names:
        raise BadVideo(f"That file is a {found.upper()} video, not a .{extension.lower()} file.")
    return found


def _nice() -> None:
    os.nice(19)


def probe(path: str | Path) -> Probe:
    """ffprobe's reading of the video at `path`; BadVideo if it can't read one, it is
    longer than MAX_SECONDS, or its frame is over MAX_PIXELS."""
    command = [
        "ffprobe", "-v", "error", "-print_format", "json",
        "-show_entries", "format=duration:stream=codec_type,width,height,duration",
        str(path),
    ]  # fmt: skip
    try:
        done = subprocess.run(
            command, capture_output=True, timeout=PROBE_SECONDS, check=False, preexec_fn=_nice
        )
        found = json.loads(done.stdout or b"{}")
    except (subprocess.TimeoutExpired, ValueError):
        raise BadVideo("That video can't be read.") from None
    streams = [s for s in found.get("streams", []) if s.get("codec_type") == "video"]
    if done.returncode != 0 or not streams:
        raise BadVideo("That file is not a video we can read (MP4, WebM or MOV).")
    stream = streams[0]
    width, height = int(stream.get("width") or 0), int(stream.get("height") or 0)
    try:
        duration = float(found.get("format", {}).get("duration") or stream.get("duration") or 0)
    except ValueError:
        duration = 0.0
    if not width or not height:
        raise BadVideo("That video has no picture we can read.")
    if width * height > MAX_PIXELS:
        raise BadVideo("That video's frame has too many pixels.")
    if duration > MAX_SECONDS:
        raise BadVideo(f"A video is at most {int(MAX_SECONDS // 60)} minutes long.")
    return Probe(duration, width, height)


def _run(command: list[str]) -> None:
    try:
        done = subprocess.run(
            command, capture_output=True, timeout=TRANSCODE_SECONDS, check=False, preexec_fn=_nice
        )
    except subprocess.TimeoutExpired:
        raise BadVideo("That video takes too long to convert.") from None
    if done.returncode != 0:
        raise BadVideo("That video can't be converted.")


def transcode(source: Path, out_dir: Path, *, sound: bool) -> tuple[Path, Path]:
    """The video at `source` as H.264 MP4 (yuv420p, even sides, at most KEPT_SIDE, the
    moov atom first so it plays while loading; AAC sound if `sound`, none for a gifv) and
    its first frame as a PNG: (mp4, png) in `out_dir`. BadVideo if ffmpeg fails."""
    mp4, poster = out_dir / "out.mp4", out_dir / "poster.png"
    fit = (
        f"scale='min({KEPT_SIDE},iw)':'min({KEPT_SIDE},ih)':force_original_aspect_ratio=decrease,"
        "scale=trunc(iw/2)*2:trunc(ih/2)*2"
    )
    audio = ["-c:a", "aac", "-b:a", "128k"] if sound else ["-an"]
    _run(
        [
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(source),
            "-t", str(MAX_SECONDS), "-map", "0:v:0", *(["-map", "0:a:0?"] if sound else []),
            "-vf", fit, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23",
            "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-map_metadata", "-1",
            *audio, "-threads", "2", str(mp4),
        ]
    )  # fmt: skip
    _run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", str(mp4), "-frames:v", "1", str(poster)])
    return mp4, poster
