"""Visibility per post, content warnings and the sensitive flag in the client API:
POST /api/v1/statuses takes `visibility`, `spoiler_text` and `sensitive`; Status
entities show them; every timeline, search and notifications obey the visibility."""

import pytest
from django.core.management import call_command

from timeline.graph.services import follow_user
from timeline.posting.services import post_status


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


@pytest.fixture
def as_bob(bob, api_as):
    return api_as(bob)


@pytest.fixture
def as_carol(carol, api_as):
    return api_as(carol)


def ids(body) -> list[str]:
    return [status["id"] for status in body]


def test_a_status_is_posted_with_its_visibility_warning_and_sensitive_flag(as_alice):
    for visibility in ("public", "unlisted", "private"):
        status, body, _ = as_alice(
            "post", "/api/v1/statuses", {"status": "hi", "visibility": visibility}
        )
        assert status == 200 and body["visibility"] == visibility
        assert (body["spoiler_text"], body["sensitive"]) == ("", False)
    status, body, _ = as_alice(
        "post", "/api/v1/statuses", {"status": "the end", "spoiler_text": "Spoilers"}
    )
    assert (body["spoiler_text"], body["sensitive"], body["visibility"]) == (
        "Spoilers",
        True,
        "public",
    )
    status, body, _ = as_alice("post", "/api/v1/statuses", {"status": "x", "sensitive": True})
    assert (body["spoiler_text"], body["sensitive"]) == ("", True)
    assert as_alice("get", f"/api/v1/statuses/{body['id']}")[1]["sensitive"] is True


def test_bad_visibility_warning_or_flag_is_422_and_posts_nothing(alice, as_alice):
    for data in (
        {"status": "hi", "visibility": "everyone"},
        {"status": "hi", "spoiler_text": "x" * 280},
        {"status": "hi", "spoiler_text": "a\u202eb"},
        {"status": "hi", "sensitive": "perhaps"},
        {"status": "hi", "visibility": "direct"},
    ):
        status, body, _ = as_alice("post", "/api/v1/statuses", data)
        assert status == 422 and set(body) == {"error"}, data
    assert as_alice("get", f"/api/v1/accounts/{alice.uid}/statuses")[1] == []


def test_timelines_obey_each_visibility(alice, bob, carol, as_bob, as_carol, client):
    follow_user(bob.uid, alice.uid)
    public = str(post_status(alice.uid, "#news public"))
    unlisted = str(post_status(alice.uid, "#news unlisted", visibility="unlisted"))
    private = str(post_status(alice.uid, "#news private", visibility="private"))
    direct = str(post_status(alice.uid, "#news direct @carol", visibility="direct"))
    call_command("worker", burst=True)
    assert ids(as_bob("get", "/api/v1/timelines/home")[1]) == [private, unlisted, public]
    for reader in (as_bob, as_carol):
        assert ids(reader("get", "/api/v1/timelines/public")[1]) == [public]
    # A followers-only status is on a tag's page for followers, as a private account's.
    assert ids(as_bob("get", "/api/v1/timelines/tag/news")[1]) == [private, public]
    assert ids(as_carol("get", "/api/v1/timelines/tag/news")[1]) == [public]
    assert ids(client.get("/api/v1/timelines/public").json()) == [public]
    profile = f"/api/v1/accounts/{alice.uid}/statuses"
    assert ids(as_bob("get", profile)[1]) == [private, unlisted, public]
    assert ids(as_carol("get", profile)[1]) == [direct, unlisted, public]
    assert ids(client.get(profile).json()) == [unlisted, public]
    assert as_bob("get", f"/api/v1/statuses/{direct}")[0] == 404
    assert as_carol("get", f"/api/v1/statuses/{direct}")[1]["visibility"] == "direct"
    assert as_carol("get", f"/api/v1/statuses/{private}")[0] == 404


def test_search_finds_only_what_the_visibility_allows(alice, bob, as_bob):
    follow_user(bob.uid, alice.uid)
    public = str(post_status(alice.uid, "garden public"))
    post_status(alice.uid, "garden unlisted", visibility="unlisted")
    post_status(alice.uid, "garden direct @bob", visibility="direct")
    found = as_bob("get", "/api/v2/search", {"q": "garden", "type": "statuses"})[1]
    assert ids(found["statuses"]) == [public]


def test_a_direct_status_notifies_only_the_mentioned_and_is_in_their_conversations(
    alice, bob, carol, as_bob, as_carol
):
    follow_user(bob.uid, alice.uid)
    sid = str(post_status(alice.uid, "psst @carol", visibility="direct"))
    notes = as_carol("get", "/api/v1/notifications")[1]
    assert [(n["type"], n["status"]["id"], n["status"]["visibility"]) for n in notes] == [
        ("mention", sid, "direct")
    ]
    assert as_bob("get", "/api/v1/notifications")[1] == []
    conversations = as_carol("get", "/api/v1/conversations")[1]
    assert len(conversations) == 1 and "psst @carol" in conversations[0]["last_status"]["content"]


def test_the_default_visibility_is_the_accounts_source_privacy(alice, as_alice):
    own = as_alice("get", "/api/v1/accounts/verify_credentials")[1]
    assert own["source"]["privacy"] == "public"
    status, body, _ = as_alice(
        "patch", "/api/v1/accounts/update_credentials", {"source": {"privacy": "unlisted"}}
    )
    assert status == 200 and body["source"]["privacy"] == "unlisted"
    assert as_alice("post", "/api/v1/statuses", {"status": "hi"})[1]["visibility"] == "unlisted"
    status, body, _ = as_alice(
        "patch", "/api/v1/accounts/update_credentials", {"source": {"privacy": "secret"}}
    )
    assert status == 422
