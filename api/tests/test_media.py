"""Media in the client API over HTTP: uploads (v2 and v1), reading and describing one,
attaching them with a post, the Status entity's media_attachments, bad input and limits."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from socialsite import jobs
from timeline.media import selectors
from timeline.media.tests import files


def upload(token, data, name="cat.jpg", content_type="image/jpeg", path="/api/v2/media", **fields):
    file = SimpleUploadedFile(name, data, content_type=content_type)
    return Client().post(path, {"file": file, **fields}, **token)


def test_an_uploaded_picture_is_a_media_attachment_at_once(alice, token_for):
    response = upload(
        token_for(alice), files.jpeg((800, 600)), description="A red field", focus="0.2,0.4"
    )
    assert response.status_code == 200
    media = response.json()
    assert media["type"] == "image" and media["id"].isdigit()
    assert media["url"].startswith("http://testserver/media/attachments/")
    assert media["preview_url"].endswith("-small.webp")
    assert media["meta"]["original"] == {
        "width": 800,
        "height": 600,
        "size": "800x600",
        "aspect": 800 / 600,
    }
    assert media["meta"]["small"]["width"] == 640
    assert media["meta"]["focus"] == {"x": 0.2, "y": 0.4}
    assert media["description"] == "A red field" and media["blurhash"]


def test_the_v1_upload_answers_200(alice, token_for):
    response = upload(
        token_for(alice), files.png(), name="a.png", content_type="image/png", path="/api/v1/media"
    )
    assert response.status_code == 200 and response.json()["type"] == "image"


def test_a_video_upload_answers_202_until_processed(alice, token_for):
    token = token_for(alice)
    response = upload(token, files.video(1.0), name="clip.mp4", content_type="video/mp4")
    assert response.status_code == 202
    media = response.json()
    assert media["type"] == "video" and media["url"] is None
    read = Client().get(f"/api/v1/media/{media['id']}", **token)
    assert read.status_code == 206
    jobs.work(burst=True)
    read = Client().get(f"/api/v1/media/{media['id']}", **token)
    assert read.status_code == 200 and read.json()["url"].endswith(".mp4")
    assert read.json()["meta"]["original"]["duration"] > 0.5


def test_put_changes_the_description_and_focus(alice, bob, token_for, api_as):
    media = upload(token_for(alice), files.png(), name="a.png", content_type="image/png").json()
    code, changed, _ = api_as(alice)(
        "put", f"/api/v1/media/{media['id']}", {"description": "Green", "focus": "-0.5,0.5"}
    )
    assert code == 200 and changed["description"] == "Green"
    assert changed["meta"]["focus"] == {"x": -0.5, "y": 0.5}
    # Someone else's is no record of theirs.
    assert api_as(bob)("get", f"/api/v1/media/{media['id']}")[0] == 404
    assert api_as(bob)("put", f"/api/v1/media/{media['id']}", {"description": "Mine"})[0] == 404
    code, error, _ = api_as(alice)(
        "put", f"/api/v1/media/{media['id']}", {"description": "x" * 1501}
    )
    assert code == 422 and "1,500" in error["error"]
    assert selectors.get_attachment(alice.uid, int(media["id"])).description == "Green"


def test_a_post_with_media_ids_shows_its_media_attachments(alice, bob, token_for, api_as):
    token = token_for(alice)
    one = upload(token, files.jpeg()).json()
    two = upload(token, files.png(), name="b.png", content_type="image/png").json()
    response = Client().post(
        "/api/v1/statuses",
        {"status": "Two", "media_ids[]": [two["id"], one["id"]], "sensitive": "true"},
        **token,
    )
    assert response.status_code == 200
    status = response.json()
    assert [m["id"] for m in status["media_attachments"]] == [two["id"], one["id"]]
    assert status["sensitive"] is True
    # Read back by another, alone and in a timeline.
    code, read, _ = api_as(bob)("get", f"/api/v1/statuses/{status['id']}")
    assert [m["id"] for m in read["media_attachments"]] == [two["id"], one["id"]]
    _, page, _ = api_as(alice)("get", f"/api/v1/accounts/{alice.uid}/statuses")
    assert [m["type"] for m in page[0]["media_attachments"]] == ["image", "image"]


def test_a_status_without_media_has_an_empty_list(alice, api_as):
    _, status, _ = api_as(alice)("post", "/api/v1/statuses", {"status": "plain"})
    assert status["media_attachments"] == []


@pytest.mark.parametrize(
    ("data", "name", "content_type", "says"),
    [
        (b"not a picture at all", "a.jpg", "image/jpeg", "not a picture"),
        (files.png(), "a.png", "image/jpeg", "not image/jpeg"),
        (files.bomb_png(), "a.png", "image/png", "too many pixels"),
        (files.jpeg() + b"PK\x03\x04zip", "a.jpg", "image/jpeg", "appended"),
    ],
    ids=["garbage", "mismatch", "bomb", "polyglot"],
)
def test_bad_uploads_are_422_and_store_nothing(alice, token_for, data, name, content_type, says):
    response = upload(token_for(alice), data, name=name, content_type=content_type)
    assert response.status_code == 422
    assert says in response.json()["error"]
    assert selectors.user_media_ids(alice.uid) == []


def test_an_upload_without_a_file_is_422(alice, api_as):
    code, error, _ = api_as(alice)("post", "/api/v2/media", {"description": "no file"})
    assert code == 422 and "File" in error["error"]


def test_bad_media_ids_are_422_and_post_nothing(alice, bob, token_for, api_as):
    theirs = upload(token_for(bob), files.png(), name="b.png", content_type="image/png").json()
    post = api_as(alice)
    code, error, _ = post("post", "/api/v1/statuses", {"status": "x", "media_ids": [theirs["id"]]})
    assert code == 422 and "isn't yours" in error["error"]
    code, error, _ = post(
        "post", "/api/v1/statuses", {"status": "x", "media_ids": ["1", "2", "3", "4", "5"]}
    )
    assert code == 422 and "at most 4" in error["error"]
    code, error, _ = post("post", "/api/v1/statuses", {"status": "x", "media_ids": ["abc"]})
    assert code == 422
    assert post("get", f"/api/v1/accounts/{alice.uid}/statuses")[1] == []


def test_a_request_over_the_upload_size_is_413(alice, token_for):
    with override_settings(MEDIA_MAX_BYTES_PER_REQUEST=50_000):
        response = upload(token_for(alice), files.noisy_jpeg((300, 300)))
    assert response.status_code == 413
    assert selectors.user_media_ids(alice.uid) == []


def test_uploads_past_the_rate_limit_get_429_with_retry_after(alice, token_for, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "media": (2, 3600)}
    token = token_for(alice)
    assert [
        upload(token, files.png(), name="a.png", content_type="image/png").status_code
        for _ in range(2)
    ] == [200, 200]
    refused = upload(token, files.png(), name="a.png", content_type="image/png")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert len(selectors.user_media_ids(alice.uid)) == 2


def test_uploading_needs_the_write_scope(alice, token_for):
    assert (
        upload(
            token_for(alice, "read"), files.png(), name="a.png", content_type="image/png"
        ).status_code
        == 403
    )
    assert upload({}, files.png(), name="a.png", content_type="image/png").status_code == 401


def test_put_status_changes_media_descriptions_not_the_media(alice, token_for, api_as):
    media = upload(token_for(alice), files.png(), name="a.png", content_type="image/png").json()
    other = upload(token_for(alice), files.png(), name="b.png", content_type="image/png").json()
    call = api_as(alice)
    _, status, _ = call("post", "/api/v1/statuses", {"status": "x", "media_ids": [media["id"]]})
    code, edited, _ = call(
        "put",
        f"/api/v1/statuses/{status['id']}",
        {
            "status": "x",
            "media_ids": [media["id"]],
            "media_attributes": [{"id": media["id"], "description": "Alt"}],
        },
    )
    assert code == 200 and edited["media_attachments"][0]["description"] == "Alt"
    code, error, _ = call(
        "put",
        f"/api/v1/statuses/{status['id']}",
        {"status": "y", "media_ids": [media["id"], other["id"]]},
    )
    assert code == 422 and "not which media" in error["error"]
    assert call("get", f"/api/v1/statuses/{status['id']}")[1]["content"] == "<p>x</p>"


def test_the_api_streams_status_entity_carries_media_attachments(alice, token_for):
    from api.stream_events import status_entity
    from timeline.posting import services as posting

    media = upload(token_for(alice), files.png(), name="a.png", content_type="image/png").json()
    status_id = posting.post_status(alice.uid, "Streamed", media_ids=[int(media["id"])])
    entity = status_entity("http://testserver", status_id, alice.uid)
    assert [m["id"] for m in entity["media_attachments"]] == [media["id"]]


def test_an_edited_statuses_history_shows_its_attachments(alice, token_for, api_as):
    media = upload(token_for(alice), files.png(), name="a.png", content_type="image/png").json()
    call = api_as(alice)
    _, status, _ = call("post", "/api/v1/statuses", {"status": "v1", "media_ids": [media["id"]]})
    call("put", f"/api/v1/statuses/{status['id']}", {"status": "v2"})
    _, history, _ = call("get", f"/api/v1/statuses/{status['id']}/history")
    assert [[m["id"] for m in v["media_attachments"]] for v in history] == [[media["id"]]] * 2
