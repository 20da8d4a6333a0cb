"""`toot post --media` (a real toot process): the picture uploaded with its alt text and
attached to the status it posts."""

from timeline.media.selectors import status_attachments
from timeline.media.tests import files
from timeline.statuses.selectors import get_status

from .test_toot import toot, toot_login  # noqa: F401 (toot is a fixture)


def test_toot_posts_a_picture_with_its_description(daphne_server, person, toot, tmp_path):  # noqa: F811
    person("alice")
    toot_login(toot, daphne_server, "alice")
    photo = tmp_path / "cat.png"
    photo.write_bytes(files.png((320, 240), "RGB"))
    posted = toot("post", "--media", str(photo), "--description", "A green cat", "Look")
    status = get_status(int(posted.strip().rstrip("/").rsplit("/", 1)[1]))
    (attachment,) = status_attachments(status)
    assert (attachment.kind, attachment.description) == ("image", "A green cat")
    assert (attachment.width, attachment.height) == (320, 240)
