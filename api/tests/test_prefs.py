"""Markers and preferences through the API (the Django test client, with tokens made
directly): saved per user with versions, bad input and rate limits."""

from accounts import markers
from timeline.posting.preferences import set_posting_preferences


def test_markers_are_saved_per_user_with_a_growing_version(alice, bob, api_as):
    as_alice = api_as(alice)
    assert as_alice("get", "/api/v1/markers")[:2] == (200, {})
    status, saved, _ = as_alice("post", "/api/v1/markers", {"home": {"last_read_id": "103"}})
    assert status == 200 and set(saved) == {"home"}
    assert saved["home"]["last_read_id"] == "103" and saved["home"]["version"] == 1
    assert saved["home"]["updated_at"].endswith("Z")
    as_alice("post", "/api/v1/markers", {"home": {"last_read_id": "110"}})
    found = as_alice("get", "/api/v1/markers", {"timeline[]": ["home", "notifications"]})[1]
    assert found["home"]["last_read_id"] == "110" and found["home"]["version"] == 2
    assert "notifications" not in found
    assert api_as(bob)("get", "/api/v1/markers")[1] == {}


def test_markers_take_a_form_as_well_as_json(alice, api_as, token_for):
    from django.test import Client

    response = Client().post(
        "/api/v1/markers",
        {"home[last_read_id]": "7", "notifications[last_read_id]": "9"},
        **token_for(alice),
    )
    assert response.status_code == 200
    assert {n: m["last_read_id"] for n, m in response.json().items()} == {
        "home": "7",
        "notifications": "9",
    }
    found = api_as(alice)("get", "/api/v1/markers", {"timeline[]": "notifications"})[1]
    assert list(found) == ["notifications"]


def test_bad_markers_are_422_and_save_nothing(alice, api_as):
    as_alice = api_as(alice)
    for body in ({}, {"home": {"last_read_id": ""}}, {"home": {"last_read_id": "x" * 41}}):
        status, answer, _ = as_alice("post", "/api/v1/markers", body)
        assert status == 422 and set(answer) == {"error"}
    assert markers.get_markers(alice.uid) == {}
    status, _, _ = api_as(alice, "read")("post", "/api/v1/markers", {"home": {"last_read_id": "1"}})
    assert status == 403 and markers.get_markers(alice.uid) == {}


def test_saving_markers_past_the_rate_limit_is_429_with_retry_after(alice, api_as, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "markers": (1, 600)}
    as_alice = api_as(alice)
    assert as_alice("post", "/api/v1/markers", {"home": {"last_read_id": "1"}})[0] == 200
    status, body, response = as_alice("post", "/api/v1/markers", {"home": {"last_read_id": "2"}})
    assert status == 429 and int(response["Retry-After"]) > 0
    assert markers.get_markers(alice.uid)["home"]["last_read_id"] == "1"


def test_preferences_are_the_users_own_defaults(alice, api_as):
    status, found, _ = api_as(alice)("get", "/api/v1/preferences")
    assert status == 200 and found["posting:default:visibility"] == "public"
    assert found["posting:default:sensitive"] is False
    assert found["reading:expand:spoilers"] is False
    assert found["reading:expand:media"] == "default"
    set_posting_preferences(alice.uid, default_visibility="private", expand_warnings=True)
    found = api_as(alice)("get", "/api/v1/preferences")[1]
    assert found["posting:default:visibility"] == "private"
    assert found["reading:expand:spoilers"] is True


def test_markers_and_preferences_need_a_token(client):
    for path in ("/api/v1/markers", "/api/v1/preferences"):
        response = client.get(path)
        assert response.status_code == 401 and set(response.json()) == {"error"}
