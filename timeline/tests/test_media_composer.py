"""The composer's media: files sent with the post (no JavaScript), each with its alt
text, attached in order; a bad file, too many, a request over its size or a sender over
RATE_LIMIT_MEDIA refused with a message, and nothing stored."""

from django.core.files.uploadedfile import SimpleUploadedFile

from timeline.media import selectors as media
from timeline.media.tests import files
from timeline.statuses.selectors import get_status
from timeline.tests.pages import page_text, shows, status_ids


def _picture(name="cat.jpg", size=(900, 600)):
    return SimpleUploadedFile(name, files.jpeg(size), content_type="image/jpeg")


def test_the_composer_posts_files_with_their_alt_texts_in_order(alice):
    response = alice.client.post(
        "/statuses/",
        {
            "message": "two cats",
            "media": [_picture("one.jpg"), _picture("two.jpg", (300, 500))],
            "media_description": ["A ginger cat", "", "", ""],
        },
    )
    assert response.status_code == 302
    [status_id] = status_ids(alice.client.get("/u/alice/"))
    found = media.status_attachments(get_status(status_id))
    assert [(a.description, a.width, a.height) for a in found] == [
        ("A ginger cat", 900, 600),
        ("", 300, 500),
    ]
    page = page_text(alice.client.get("/u/alice/media/"))
    assert 'alt="A ginger cat"' in page and status_ids(alice.client.get("/u/alice/media/")) == [
        status_id
    ]


def test_the_composer_marks_media_sensitive(alice):
    alice.client.post("/statuses/", {"message": "hm", "media": [_picture()], "sensitive": "1"})
    [status_id] = status_ids(alice.client.get("/u/alice/"))
    assert get_status(status_id)["sensitive"] == "1"
    assert "media-sensitive" in page_text(alice.client.get("/u/alice/"))


def test_a_reply_carries_files_too(alice, bob):
    parent = status_ids(alice.client.post("/statuses/", {"message": "show me"}, follow=True))[0]
    response = bob.client.post(
        f"/statuses/{parent}/reply/",
        {"message": "@alice here", "media": [_picture()], "media_description": ["A cat"]},
    )
    assert response.status_code == 302
    page = page_text(alice.client.get(f"/statuses/{parent}/"))
    assert 'alt="A cat"' in page


def test_a_file_that_is_not_a_picture_is_refused_and_nothing_is_stored(alice):
    fake = SimpleUploadedFile("cat.jpg", b"<?php echo 1; ?>", content_type="image/jpeg")
    response = alice.client.post(
        "/statuses/", {"message": "sneaky", "media": [_picture("fine.jpg"), fake]}
    )
    assert response.status_code == 400
    assert shows(response, "cat.jpg:")
    assert status_ids(alice.client.get("/u/alice/")) == []
    # The good file uploaded before the bad one is gone again.
    assert media.user_media_ids(alice.uid) == []
    # The composer comes back with the message and alt texts typed.
    assert "sneaky" in page_text(response)


def test_five_files_are_refused(alice):
    response = alice.client.post(
        "/statuses/", {"message": "many", "media": [_picture(f"{n}.jpg") for n in range(5)]}
    )
    assert response.status_code == 400 and shows(response, "at most 4")
    assert media.user_media_ids(alice.uid) == []


def test_a_refused_post_deletes_its_uploads(alice):
    response = alice.client.post(
        "/statuses/", {"message": "nobody", "visibility": "direct", "media": [_picture()]}
    )
    assert response.status_code == 400
    assert media.user_media_ids(alice.uid) == []


def test_a_request_over_the_upload_limit_is_refused_unread(alice, settings):
    settings.MEDIA_MAX_BYTES_PER_REQUEST = 1000
    response = alice.client.post("/statuses/", {"message": "big", "media": [_picture()]})
    assert response.status_code == 400 and shows(response, "Uploads are at most")
    assert status_ids(alice.client.get("/u/alice/")) == [] and media.user_media_ids(alice.uid) == []


def test_uploads_over_the_rate_limit_get_429(alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "media": (2, 3600)}
    ok = alice.client.post("/statuses/", {"message": "one", "media": [_picture(), _picture()]})
    assert ok.status_code == 302
    response = alice.client.post("/statuses/", {"message": "two", "media": [_picture()]})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert len(status_ids(alice.client.get("/u/alice/"))) == 1
    assert len(media.user_media_ids(alice.uid)) == 2


def test_the_composer_asks_for_alt_text_for_each_file(alice):
    page = page_text(alice.client.get("/"))
    assert 'enctype="multipart/form-data"' in page
    assert 'type="file" name="media"' in page and "multiple" in page
    assert page.count('name="media_description"') == 4
    assert page.count("No alt text") == 4
