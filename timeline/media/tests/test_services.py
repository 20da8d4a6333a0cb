"""Uploading, describing, attaching and deleting media against a real Redis and the
site's storage: pictures checked and redrawn, bad files refused with nothing stored."""

import io

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.test import override_settings
from PIL import Image

from accounts.services import close_account
from socialsite import jobs
from timeline.media import keys, layout, selectors, services
from timeline.media.services import MediaError
from timeline.posting import services as posting
from timeline.statuses import selectors as statuses

from . import files


def run_jobs():
    jobs.work(burst=True)


def stored_file(url: str) -> bytes:
    name = url.removeprefix(settings.MEDIA_URL)
    with default_storage.open(name, "rb") as file:
        return file.read()


def nothing_stored(conn, uid):
    return not conn.exists(keys.user_media_key(uid), keys.media_bytes_key(uid))


# Pictures


def test_a_jpeg_is_redrawn_upright_without_its_exif(alice):
    data = files.jpeg((800, 600), exif=files.gps_exif(orientation=6))
    assert b"SecretCam" in data
    found = services.upload_media(alice.uid, data, media_type="image/jpeg", filename="cat.jpg")
    assert (found.kind, found.state) == ("image", "ready")
    # Orientation 6 turns it a quarter: 600 wide, 800 high.
    assert (found.width, found.height) == (600, 800)
    assert max(found.preview_width, found.preview_height) == 640
    assert found.blurhash
    kept = stored_file(found.url)
    assert b"SecretCam" not in kept
    with Image.open(io.BytesIO(kept)) as picture:
        assert picture.format == "JPEG"
        assert picture.size == (600, 800)
        assert not picture.getexif()
    with Image.open(io.BytesIO(stored_file(found.preview_url))) as preview:
        assert (preview.format, preview.size) == ("WEBP", (480, 640))


def test_an_upload_is_stored_with_its_alt_text_and_focus(alice, redis_conn):
    found = services.upload_media(
        alice.uid, files.png(), description="A green square", focus="0.5,-1"
    )
    again = selectors.get_attachment(alice.uid, found.id)
    assert again == found
    assert (again.description, again.focus) == ("A green square", (0.5, -1.0))
    assert again.url.endswith(".png")
    assert selectors.user_media_ids(alice.uid) == [found.id]
    assert selectors.media_bytes(alice.uid) > 0


def test_file_names_are_random(alice):
    one = services.upload_media(alice.uid, files.png())
    two = services.upload_media(alice.uid, files.png())
    assert one.url != two.url
    token = one.url.rsplit("/", 1)[1].split(".")[0]
    # 128 random bits, nothing of the uploader's.
    assert len(token) == 32 and int(token, 16) >= 0
    assert one.url.count("/") == two.url.count("/") == 3


@pytest.mark.parametrize(
    ("data", "media_type", "filename", "says"),
    [
        (b"", None, "x.jpg", "empty"),
        (b"<html><script>alert(1)</script></html>", "image/png", "x.png", "not a picture"),
        (files.png(), "image/jpeg", "x.jpg", "PNG picture, not image/jpeg"),
        (files.png(), None, "x.jpg", "not a .jpg file"),
        (files.jpeg()[:-2000], "image/jpeg", "x.jpg", "cut short"),
        (files.png((600, 400), "RGB")[:-30], "image/png", "x.png", "cut short"),
        (files.bomb_png(), "image/png", "x.png", "too many pixels"),
        (files.jpeg() + b"PK\x03\x04zip-archive-here", "image/jpeg", "x.jpg", "appended"),
        (files.png() + b"<?php echo 1; ?>", "image/png", "x.png", "appended"),
    ],
    ids=[
        "empty",
        "html",
        "wrong-type",
        "wrong-name",
        "truncated",
        "truncated-png",
        "bomb",
        "jpeg-zip",
        "png-php",
    ],
)
def test_bad_files_are_refused_and_nothing_is_stored(
    alice, redis_conn, data, media_type, filename, says
):
    with pytest.raises(MediaError, match=says):
        services.upload_media(alice.uid, data, media_type=media_type, filename=filename)
    assert nothing_stored(redis_conn, alice.uid)


def test_a_picture_over_16_mb_is_refused(alice, redis_conn):
    with pytest.raises(MediaError, match="at most 16 MB"):
        services.upload_media(alice.uid, files.jpeg() + b"\0" * (16 * 1024 * 1024))
    assert nothing_stored(redis_conn, alice.uid)


def test_alt_text_is_at_most_1500_characters(alice, redis_conn):
    services.upload_media(alice.uid, files.png(), description="x" * 1500)
    with pytest.raises(MediaError, match="1,500"):
        services.upload_media(alice.uid, files.png(), description="x" * 1501)
    with pytest.raises(MediaError, match="focus"):
        services.upload_media(alice.uid, files.png(), focus="2,0")
    assert len(selectors.user_media_ids(alice.uid)) == 1


def test_the_quota_refuses_an_upload_past_it(alice, redis_conn):
    first = services.upload_media(alice.uid, files.png())
    used = selectors.media_bytes(alice.uid)
    with (
        override_settings(MEDIA_MAX_BYTES_PER_USER=used + 10),
        pytest.raises(MediaError, match="room"),
    ):
        services.upload_media(alice.uid, files.png())
    assert selectors.user_media_ids(alice.uid) == [first.id]
    assert selectors.media_bytes(alice.uid) == used


def test_a_request_over_its_upload_size_is_refused():
    with override_settings(MEDIA_MAX_BYTES_PER_REQUEST=1024 * 1024):
        services.check_request_size(1024 * 1024)
        with pytest.raises(MediaError, match="1 MB a request"):
            services.check_request_size(1024 * 1024 + 1)


def test_alt_text_and_focus_change_until_attached(alice):
    found = services.upload_media(alice.uid, files.png())
    changed = services.update_media(alice.uid, found.id, description="Now described", focus="0,0.5")
    assert (changed.description, changed.focus) == ("Now described", (0.0, 0.5))
    assert services.update_media(alice.uid, found.id, description="").description == ""
    posting.post_status(alice.uid, "With media", media_ids=[found.id])
    with pytest.raises(services.NoSuchMedia):
        services.update_media(alice.uid, found.id, description="Too late")


def test_someone_elses_upload_can_be_neither_read_changed_nor_attached(alice, bob):
    found = services.upload_media(alice.uid, files.png())
    assert selectors.get_attachment(bob.uid, found.id) is None
    with pytest.raises(services.NoSuchMedia):
        services.update_media(bob.uid, found.id, description="mine")
    with pytest.raises(MediaError, match="doesn't exist or isn't yours"):
        posting.post_status(bob.uid, "Stolen", media_ids=[found.id])


# Posting with media


def test_a_post_attaches_its_uploads_in_order(alice):
    one = services.upload_media(alice.uid, files.png())
    two = services.upload_media(alice.uid, files.jpeg())
    status_id = posting.post_status(alice.uid, "Two pictures", media_ids=[two.id, one.id])
    status = statuses.get_status(status_id)
    assert [a.id for a in selectors.status_attachments(status)] == [two.id, one.id]
    assert selectors.get_attachment(alice.uid, one.id).status_id == status_id


def test_an_upload_attaches_to_one_status_only(alice):
    found = services.upload_media(alice.uid, files.png())
    posting.post_status(alice.uid, "First", media_ids=[found.id])
    with pytest.raises(MediaError, match="another status"):
        posting.post_status(alice.uid, "Second", media_ids=[found.id])


def test_at_most_four_attachments_and_no_media_field_from_extra_data(alice):
    ids = [services.upload_media(alice.uid, files.png()).id for _ in range(5)]
    with pytest.raises(MediaError, match="at most 4"):
        posting.post_status(alice.uid, "Five", media_ids=ids)
    with pytest.raises(ValueError, match="media"):
        posting.post_status(alice.uid, "Sneaky", media=str(ids[0]))
    assert all(selectors.get_attachment(alice.uid, i).status_id is None for i in ids)


def test_a_deleted_status_takes_its_files_with_it(alice, redis_conn):
    found = services.upload_media(alice.uid, files.jpeg())
    status_id = posting.post_status(alice.uid, "Soon gone", media_ids=[found.id])
    name = found.url.removeprefix(settings.MEDIA_URL)
    assert default_storage.exists(name)
    posting.delete_status(alice.uid, status_id)
    run_jobs()
    assert not default_storage.exists(name)
    assert not default_storage.exists(found.preview_url.removeprefix(settings.MEDIA_URL))
    assert selectors.get_attachment(alice.uid, found.id) is None
    assert nothing_stored(redis_conn, alice.uid)


def test_an_upload_never_attached_is_deleted_by_its_job_and_an_attached_one_stays(
    alice, redis_conn
):
    lone = services.upload_media(alice.uid, files.png())
    kept = services.upload_media(alice.uid, files.png())
    posting.post_status(alice.uid, "Kept", media_ids=[kept.id])
    # Both expiry jobs come due (MEDIA_UNATTACHED_SECONDS later).
    jobs.release_due_jobs(redis_conn, now=10**11)
    run_jobs()
    assert selectors.get_attachment(alice.uid, lone.id) is None
    assert not default_storage.exists(lone.url.removeprefix(settings.MEDIA_URL))
    assert selectors.get_attachment(alice.uid, kept.id) is not None


def test_a_closed_accounts_media_are_deleted(alice, redis_conn):
    found = [services.upload_media(alice.uid, files.png()) for _ in range(3)]
    posting.post_status(alice.uid, "Mine", media_ids=[found[0].id])
    close_account(alice.uid)
    run_jobs()
    assert all(selectors.get_attachment(alice.uid, a.id) is None for a in found)
    assert not any(default_storage.exists(a.url.removeprefix(settings.MEDIA_URL)) for a in found)
    assert not redis_conn.exists(keys.user_media_key(alice.uid), keys.media_bytes_key(alice.uid))


def test_a_picture_for_a_link_card_is_redrawn_and_stored(alice):
    picture = services.store_picture(files.jpeg((1200, 630), exif=files.gps_exif(1)))
    assert (picture.width, picture.height, bool(picture.blurhash)) == (1200, 630, True)
    assert b"SecretCam" not in stored_file(picture.url)
    services.delete_picture([picture.name, picture.preview_name])
    assert not default_storage.exists(picture.name)


def test_the_layout_lists_every_file_an_attachment_may_have():
    names = layout.stored_names({layout.TOKEN: "abc", layout.EXTENSION: "mp4"})
    assert names == [
        "attachments/abc.mp4",
        "attachments/abc-small.webp",
        "attachments/incoming/abc.mp4",
    ]


def test_the_export_holds_a_statuses_media_with_alt_text(alice):
    import json

    found = services.upload_media(alice.uid, files.png(), description="A green square")
    posting.post_status(alice.uid, "Mine", media_ids=[found.id])
    data = json.loads(b"".join(alice.client.post("/export/")))
    (status,) = data["statuses"]
    (media,) = status["media"]
    assert media["kind"] == "image" and media["description"] == "A green square"
    assert media["url"] == found.url and media["width"] == 300


def test_a_direct_messages_uploads_attach_to_it_and_outlive_the_expiry(alice, redis_conn):
    found = services.upload_media(alice.uid, files.png())
    owner = services.message_owner(7, 3)
    assert services.attach(redis_conn, alice.uid, owner, [found.id]) == {"media": str(found.id)}
    # Again to the same message: no error (a retried send).
    services.attach(redis_conn, alice.uid, owner, [found.id])
    attached = selectors.get_attachment(alice.uid, found.id)
    assert (attached.attached_to, attached.status_id) == (owner, None)
    with pytest.raises(MediaError, match="another status"):
        posting.post_status(alice.uid, "Reused", media_ids=[found.id])
    jobs.release_due_jobs(redis_conn, now=10**11)
    run_jobs()
    assert selectors.get_attachment(alice.uid, found.id) is not None
    assert services.delete_media(alice.uid, [found.id]) == 1
    assert selectors.get_attachment(alice.uid, found.id) is None


def test_a_forms_uploads_are_stored_all_or_none(alice, redis_conn):
    good = services.Upload(files.png(), "image/png", "a.png", "First")
    bad = services.Upload(b"not a picture", "image/png", "b.png")
    with pytest.raises(MediaError, match="b.png: That file is not a picture"):
        services.upload_many(alice.uid, [good, bad])
    assert nothing_stored(redis_conn, alice.uid)
    with pytest.raises(MediaError, match="at most 4"):
        services.upload_many(alice.uid, [good] * 5)
    made = services.upload_many(alice.uid, [good, good])
    assert [a.description for a in made] == ["First", "First"]
