"""Videos and animated GIFs: checked on upload (container, type, length by ffprobe),
transcoded by the worker with ffmpeg to H.264 MP4 with a poster frame."""

import json
import subprocess

import pytest
from django.conf import settings
from django.core.files.storage import default_storage

from socialsite import jobs
from timeline.media import selectors, services, video
from timeline.media.services import MediaError
from timeline.posting import services as posting

from . import files

pytestmark = pytest.mark.skipif(video.tools_missing() is not None, reason="ffmpeg is not installed")


def local(url: str) -> str:
    return default_storage.path(url.removeprefix(settings.MEDIA_URL))


def streams_of(path: str) -> list[dict]:
    done = subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", path],
        capture_output=True,
        check=True,
    )
    return json.loads(done.stdout)["streams"]


def test_a_video_is_processing_until_the_worker_makes_it_an_h264_mp4(alice):
    found = services.upload_media(
        alice.uid, files.video(1.0), media_type="video/mp4", filename="clip.mp4"
    )
    assert (found.kind, found.state, found.url) == ("video", "processing", "")
    assert 0.9 <= found.duration <= 1.2
    jobs.work(burst=True)
    ready = selectors.get_attachment(alice.uid, found.id)
    assert ready.state == "ready" and ready.url.endswith(".mp4")
    assert (ready.width, ready.height) == (64, 48)
    assert ready.preview_url.endswith("-small.webp") and ready.blurhash
    kinds = {s["codec_type"]: s for s in streams_of(local(ready.url))}
    assert kinds["video"]["codec_name"] == "h264"
    assert kinds["video"]["pix_fmt"] == "yuv420p"
    assert kinds["audio"]["codec_name"] == "aac"
    # The upload as sent is gone; only the MP4 and its preview are kept.
    assert not default_storage.listdir("attachments/incoming")[1]


def test_a_webm_video_is_transcoded_too(alice):
    found = services.upload_media(
        alice.uid, files.video(1.0, container="webm"), filename="clip.webm"
    )
    jobs.work(burst=True)
    assert selectors.get_attachment(alice.uid, found.id).url.endswith(".mp4")


def test_an_animated_gif_becomes_a_silent_gifv(alice):
    found = services.upload_media(
        alice.uid, files.animated_gif(), media_type="image/gif", filename="a.gif"
    )
    assert (found.kind, found.state) == ("gifv", "processing")
    jobs.work(burst=True)
    ready = selectors.get_attachment(alice.uid, found.id)
    assert ready.ready and ready.url.endswith(".mp4")
    assert [s["codec_type"] for s in streams_of(local(ready.url))] == ["video"]


def test_a_video_may_be_posted_while_processing(alice):
    found = services.upload_media(alice.uid, files.video(1.0))
    status_id = posting.post_status(alice.uid, "A clip", media_ids=[found.id])
    jobs.work(burst=True)
    ready = selectors.get_attachment(alice.uid, found.id)
    assert ready.ready and ready.status_id == status_id


def test_a_video_over_two_minutes_is_refused_at_upload(alice, redis_conn):
    long = files.video(121, size="16x16", rate=1)
    with pytest.raises(MediaError, match="at most 2 minutes"):
        services.upload_media(alice.uid, long, media_type="video/mp4")
    assert selectors.user_media_ids(alice.uid) == []


def test_a_video_stated_as_another_type_is_refused(alice):
    with pytest.raises(MediaError, match="not image/png"):
        services.upload_media(alice.uid, files.video(1.0), media_type="image/png")
    with pytest.raises(MediaError, match="not a .jpg file"):
        services.upload_media(alice.uid, files.video(1.0), filename="cat.jpg")


def test_a_video_ffmpeg_cant_read_is_refused(alice):
    broken = files.video(1.0)[:200]
    with pytest.raises(MediaError, match="not a video we can read|can't be read"):
        services.upload_media(alice.uid, broken, media_type="video/mp4")


def test_a_video_over_40_mb_is_refused(alice):
    with pytest.raises(MediaError, match="at most 40 MB"):
        services.upload_media(alice.uid, files.video(1.0) + b"\0" * (40 * 1024 * 1024))
