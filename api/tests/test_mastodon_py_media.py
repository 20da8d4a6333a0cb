"""Media as the Mastodon.py library uploads and posts them, against a real daphne:
media_post, media_update, status_post(media_ids=...), and the file served without EXIF."""

import io
import urllib.request

import pytest
from mastodon import MastodonAPIError
from PIL import Image

from timeline.media.tests import files


def test_media_post_then_status_post_with_media_ids(mastodon_as, tmp_path):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    photo = tmp_path / "holiday.jpg"
    photo.write_bytes(files.jpeg((1024, 768), exif=files.gps_exif(orientation=1)))
    media = alice.media_post(str(photo), description="A beach at noon", focus=(0.1, -0.3))
    assert media.type == "image" and media.description == "A beach at noon"
    assert media.meta.original.width == 1024 and media.meta.focus.x == 0.1
    media = alice.media_update(media, description="A beach at noon, no one on it")
    posted = alice.status_post("Holiday", media_ids=[media], sensitive=True)
    assert [m.id for m in posted.media_attachments] == [media.id]
    seen = bob.status(posted.id)
    assert seen.sensitive is True
    (shown,) = seen.media_attachments
    assert shown.description == "A beach at noon, no one on it" and shown.blurhash
    # The file as served: the same picture, with no EXIF (nor the camera's GPS).
    with urllib.request.urlopen(shown.url) as response:
        served = response.read()
    assert b"SecretCam" not in served
    with Image.open(io.BytesIO(served)) as picture:
        assert picture.size == (1024, 768) and not picture.getexif()


def test_media_post_of_a_file_that_is_not_a_picture_is_refused(mastodon_as, tmp_path):
    alice = mastodon_as("alice")
    fake = tmp_path / "fake.png"
    fake.write_bytes(b"<svg onload=alert(1)></svg>")
    with pytest.raises(MastodonAPIError, match="not a picture"):
        alice.media_post(str(fake), mime_type="image/png")


def test_status_post_with_someone_elses_media_is_refused(mastodon_as, tmp_path):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    photo = tmp_path / "a.png"
    photo.write_bytes(files.png())
    media = alice.media_post(str(photo))
    with pytest.raises(MastodonAPIError, match="isn't yours"):
        bob.status_post("Taken", media_ids=[media])


def test_status_update_changes_its_media_alt_text(mastodon_as, tmp_path):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    photo = tmp_path / "a.png"
    photo.write_bytes(files.png())
    media = alice.media_post(str(photo), description="First try")
    posted = alice.status_post("Described", media_ids=[media])
    change = alice.generate_media_edit_attributes(
        media.id, description="Better words", focus=(0.0, 1.0)
    )
    edited = alice.status_update(posted.id, "Described", media_attributes=[change])
    assert edited.media_attachments[0].description == "Better words"
    (shown,) = bob.status(posted.id).media_attachments
    assert shown.description == "Better words" and shown.meta.focus.y == 1.0
