"""Statuses with media in the site's page tests: uploads made through timeline.media's
own service (a picture is ready at once; a video or an animated GIF is "processing"
until the worker transcodes it), and a status posted with them."""

from timeline.media import services as media
from timeline.media.tests import files
from timeline.posting import services as posting

# The blurhash media gives a plain 1200x800 picture of tests' colour is whatever it is:
# pages are checked for the one the attachment holds.


def uploaded(uid: int, *, kind: str = "image", alt: str = "", size=(1200, 800)) -> int:
    """An upload of `uid`'s, not yet attached: its id. "image": a JPEG of `size` (its
    preview at most 640 px a side); "gifv": an animated GIF, processing until the worker
    runs; "video": a one-second MP4, processing likewise."""
    if kind == "image":
        data, name, media_type = files.jpeg(size), "picture.jpg", "image/jpeg"
    elif kind == "gifv":
        data, name, media_type = files.animated_gif(), "moving.gif", "image/gif"
    else:
        data, name, media_type = files.video(), "clip.mp4", "video/mp4"
    found = media.upload_media(uid, data, media_type=media_type, filename=name, description=alt)
    return found.id


def post_with_media(uid: int, message: str, media_ids: list[int], **data) -> int:
    """Posts `message` with the attachments `media_ids`: the status's id."""
    status_id = posting.post_status(uid, message, media_ids=media_ids, **data)
    assert status_id is not None
    return status_id
