"""Edits through the client API (the Django test client, with tokens made directly):
PUT /api/v1/statuses/:id, its history and source, `edited_at`, the "update"
notification, bad input and the rate limit."""

from timeline.edits.services import edit_status
from timeline.posting.services import post_status
from timeline.reactions.services import like
from timeline.statuses.selectors import get_status


def test_put_edits_the_status_and_answers_with_it(alice, api_as):
    status_id = post_status(alice.uid, "helo")
    status, body, _ = api_as(alice)(
        "put", f"/api/v1/statuses/{status_id}", {"status": "hello #fixed"}
    )
    assert status == 200 and "hello" in body["content"] and body["edited_at"]
    assert [t["name"] for t in body["tags"]] == ["fixed"]
    assert get_status(status_id)["message"] == "hello #fixed"


def test_a_form_put_sets_a_warning_and_the_sensitive_flag(alice, token_for, client):
    status_id = post_status(alice.uid, "plain")
    response = client.put(
        f"/api/v1/statuses/{status_id}",
        "status=now+warned&spoiler_text=careful&sensitive=true",
        content_type="application/x-www-form-urlencoded",
        **token_for(alice),
    )
    assert response.status_code == 200
    stored = get_status(status_id)
    assert (stored["message"], stored["spoiler_text"], stored["sensitive"]) == (
        "now warned",
        "careful",
        "1",
    )


def test_history_lists_every_version_oldest_first(alice, bob, api_as):
    status_id = post_status(alice.uid, "first")
    edit_status(alice.uid, status_id, "second", spoiler_text="cw", sensitive=True)
    status, body, _ = api_as(bob)("get", f"/api/v1/statuses/{status_id}/history")
    assert status == 200
    assert ["first" in v["content"] for v in body] == [True, False]
    assert "second" in body[1]["content"]
    assert [(v["spoiler_text"], v["sensitive"]) for v in body] == [("", False), ("cw", True)]
    # (The API's times are to the millisecond: an edit may share its post's.)
    assert body[0]["created_at"] <= body[1]["created_at"]
    assert body[0]["account"]["username"] == "alice"


def test_a_status_never_edited_has_one_version_and_its_source(alice, api_as):
    status_id = post_status(alice.uid, "as written, @nobody")
    call = api_as(alice)
    assert len(call("get", f"/api/v1/statuses/{status_id}/history")[1]) == 1
    status, body, _ = call("get", f"/api/v1/statuses/{status_id}/source")
    assert status == 200
    assert body == {"id": str(status_id), "text": "as written, @nobody", "spoiler_text": ""}


def test_editing_someone_elses_status_is_403_and_changes_nothing(alice, bob, api_as):
    status_id = post_status(alice.uid, "mine")
    status, body, _ = api_as(bob)("put", f"/api/v1/statuses/{status_id}", {"status": "theirs"})
    assert status == 403 and set(body) == {"error"}
    assert get_status(status_id)["message"] == "mine"


def test_bad_edits_are_422_or_404_and_change_nothing(alice, api_as):
    status_id = post_status(alice.uid, "steady")
    call = api_as(alice)
    for data in (
        {"status": ""},
        {"status": "x" * 281},
        {"status": "a\u202eb"},
        {},
        {"status": ["a list"]},
        {"status": "hi", "media_ids": ["1"]},
        {"status": "hi", "sensitive": "maybe"},
        {"status": "hi", "sensitive": ["true"]},
        {"status": "hi", "spoiler_text": ["a list"]},
        {"status": "hi", "spoiler_text": "w" * 280},
    ):
        status, body, _ = call("put", f"/api/v1/statuses/{status_id}", data)
        assert status == 422, data
        assert set(body) == {"error"}
    assert call("put", "/api/v1/statuses/999999", {"status": "hi"})[0] == 404
    assert call("get", "/api/v1/statuses/999999/history")[0] == 404
    assert call("get", "/api/v1/statuses/999999/source")[0] == 404
    assert get_status(status_id)["message"] == "steady"
    assert "edited" not in get_status(status_id)


def test_put_needs_the_write_scope(alice, api_as):
    status_id = post_status(alice.uid, "kept")
    status, _, _ = api_as(alice, "read")("put", f"/api/v1/statuses/{status_id}", {"status": "x"})
    assert status == 403
    assert get_status(status_id)["message"] == "kept"


def test_edits_are_rate_limited(alice, api_as, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "edits": (1, 3600)}
    status_id = post_status(alice.uid, "v0")
    call = api_as(alice)
    assert call("put", f"/api/v1/statuses/{status_id}", {"status": "v1"})[0] == 200
    status, body, response = call("put", f"/api/v1/statuses/{status_id}", {"status": "v2"})
    assert status == 429 and int(response["Retry-After"]) > 3500
    assert body == {"error": "Too many edits for now: try again in 60 minutes."}
    assert get_status(status_id)["message"] == "v1"


def test_likers_get_an_update_notification(alice, bob, api_as):
    status_id = post_status(alice.uid, "liked")
    like(bob.uid, status_id)
    edit_status(alice.uid, status_id, "liked, then edited")
    status, body, _ = api_as(bob)("get", "/api/v1/notifications")
    assert status == 200
    updates = [n for n in body if n["type"] == "update"]
    assert len(updates) == 1 and updates[0]["status"]["id"] == str(status_id)
    assert updates[0]["account"]["username"] == "alice"
    assert updates[0]["status"]["edited_at"]
