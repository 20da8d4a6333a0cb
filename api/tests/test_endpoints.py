"""The endpoints' answers to bad input, refusals and the parts the clients' tests don't
reach (the Django test client, with tokens made directly): Mastodon's errors, and
nothing changed by a refused request."""

import pytest

from accounts.services import set_suspended
from timeline.direct.services import start_conversation
from timeline.feeds.selectors import get_status_messages
from timeline.graph.selectors import is_following
from timeline.graph.services import follow_user
from timeline.lists.services import create_list
from timeline.posting.services import post_status


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


def test_bad_statuses_are_422_and_post_nothing(alice, as_alice):
    for data in (
        {"status": ""},
        {"status": "x" * 281},
        {"status": "a\u202eb"},
        {},
        {"status": ["a list"]},
        {"status": "hi", "visibility": "direct"},
        {"status": "hi", "media_ids": ["1"]},
        {"status": "hi", "in_reply_to_id": "not an id"},
    ):
        status, body, _ = as_alice("post", "/api/v1/statuses", data)
        assert status == 422, data
        assert set(body) == {"error"}
    assert get_status_messages(alice.uid, "profile") == []


def test_a_reply_to_a_status_that_is_gone_is_404(alice, as_alice):
    status, body, _ = as_alice("post", "/api/v1/statuses", {"status": "hi", "in_reply_to_id": "99"})
    assert (status, body["error"]) == (404, "The status replied to doesn't exist or was deleted.")
    assert get_status_messages(alice.uid, "profile") == []


def test_posting_past_the_rate_limit_is_429_with_retry_after(alice, as_alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "posts": (1, 600)}
    assert as_alice("post", "/api/v1/statuses", {"status": "one"})[0] == 200
    status, body, response = as_alice("post", "/api/v1/statuses", {"status": "two"})
    assert status == 429
    assert body["error"].startswith("Too many posts for now")
    assert int(response["Retry-After"]) > 0
    assert [s["message"] for s in get_status_messages(alice.uid, "profile")] == ["one"]


def test_the_page_form_and_the_api_share_one_rate_limit(alice, bob, as_alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "follows": (1, 600)}
    assert alice.client.post("/u/bob/unfollow/").status_code == 302
    status, _, _ = as_alice("post", f"/api/v1/accounts/{bob.uid}/follow")
    assert status == 429
    assert not is_following(alice.uid, bob.uid)


def test_someone_elses_status_cant_be_deleted(alice, bob, as_alice):
    theirs = post_status(bob.uid, "mine")
    status, body, _ = as_alice("delete", f"/api/v1/statuses/{theirs}")
    assert (status, body) == (403, {"error": "This action is not allowed"})
    assert as_alice("get", f"/api/v1/statuses/{theirs}")[0] == 200


def test_unknown_records_are_404(as_alice):
    for path in (
        "/api/v1/statuses/12345",
        "/api/v1/statuses/abc",
        "/api/v1/statuses/99999999999999999999999",
        "/api/v1/accounts/777",
        "/api/v1/accounts/lookup?acct=nobody",
        "/api/v1/accounts/lookup?acct=alice@elsewhere.example",
        "/api/v1/timelines/list/5",
        "/api/v1/statuses/12345/context",
    ):
        status, body, _ = as_alice("get", path)
        assert (status, set(body)) == (404, {"error"}), path
    assert as_alice("post", "/api/v1/statuses/12345/favourite")[0] == 404


def test_bad_paging_parameters_are_422(as_alice):
    for query in ("max_id=abc", "since_id=-1", "limit=lots", "min_id=1.5"):
        assert as_alice("get", f"/api/v1/timelines/home?{query}")[0] == 422, query
    assert as_alice("get", "/api/v1/accounts/1/followers?max_id=7")[0] == 422
    assert as_alice("get", "/api/v1/timelines/tag/not%20a%20tag")[0] == 422


def test_a_limit_is_kept_within_mastodons_bounds(alice, as_alice):
    for n in range(45):
        post_status(alice.uid, f"status {n}")
    assert len(as_alice("get", "/api/v1/timelines/home?limit=100")[1]) == 40
    assert len(as_alice("get", "/api/v1/timelines/home?limit=0")[1]) == 1
    assert len(as_alice("get", "/api/v1/timelines/home")[1]) == 20


def test_wrong_methods_are_405_with_allow(as_alice):
    status, body, response = as_alice("put", "/api/v1/timelines/home", {})
    assert status == 405 and response["Allow"] == "GET"


def test_following_yourself_is_422(alice, as_alice):
    status, body, _ = as_alice("post", f"/api/v1/accounts/{alice.uid}/follow")
    assert (status, body) == (422, {"error": "You can't follow yourself."})


def test_followers_are_paged_by_opaque_cursors(alice, as_alice, followers_of, settings):
    followers_of(alice.uid, 3)
    status, page, response = as_alice("get", f"/api/v1/accounts/{alice.uid}/followers?limit=2")
    assert status == 200 and len(page) == 2
    assert 'max_id=p2>; rel="next"' in response["Link"]
    rest = as_alice("get", f"/api/v1/accounts/{alice.uid}/followers?limit=2&max_id=p2")
    assert len(rest[1]) == 1 and "Link" not in rest[2]


def test_relationships_say_who_follows_whom(alice, bob, as_alice):
    follow_user(bob.uid, alice.uid)
    status, found, _ = as_alice("get", f"/api/v1/accounts/relationships?id[]={bob.uid}")
    assert status == 200
    assert (found[0]["following"], found[0]["followed_by"]) == (False, True)


def test_lists_are_made_renamed_and_deleted_and_someone_elses_is_404(alice, bob, as_alice):
    status, made, _ = as_alice("post", "/api/v1/lists", {"title": "Friends"})
    assert status == 200 and made["title"] == "Friends"
    assert as_alice("post", "/api/v1/lists", {"title": ""})[0] == 422
    renamed = as_alice("put", f"/api/v1/lists/{made['id']}", {"title": "Pals"})[1]
    assert renamed["title"] == "Pals"
    theirs = create_list(bob.uid, "Bob's")
    assert as_alice("get", f"/api/v1/lists/{theirs}")[0] == 404
    assert as_alice("delete", f"/api/v1/lists/{made['id']}")[:2] == (200, {})
    assert as_alice("get", "/api/v1/lists")[1] == []


def test_a_read_token_cant_change_lists(alice, token_for, client):
    headers = token_for(alice, "read")
    answer = client.post("/api/v1/lists", {"title": "x"}, **headers)
    assert answer.status_code == 403
    assert client.get("/api/v1/lists", **headers).json() == []


def test_conversations_are_the_direct_messages(alice, bob, as_alice):
    start_conversation(bob.uid, "alice", "psst")
    status, found, _ = as_alice("get", "/api/v1/conversations")
    assert status == 200
    assert [a["username"] for a in found[0]["accounts"]] == ["bob"]
    assert found[0]["unread"] is True
    assert found[0]["last_status"]["visibility"] == "direct"
    assert "psst" in found[0]["last_status"]["content"]


def test_public_and_tag_timelines_need_no_token(alice, client):
    tagged = post_status(alice.uid, "about #Redis")
    post_status(alice.uid, "untagged")
    assert [s["id"] for s in client.get("/api/v1/timelines/tag/redis").json()] == [str(tagged)]
    assert len(client.get("/api/v1/timelines/public").json()) == 2
    assert client.get("/api/v1/timelines/home").status_code == 401


def test_a_suspended_users_token_stops_working_at_once(alice, as_alice):
    assert as_alice("get", "/api/v1/accounts/verify_credentials")[0] == 200
    set_suspended(alice.uid, True)
    assert as_alice("get", "/api/v1/accounts/verify_credentials")[0] == 401


def test_pinned_and_media_statuses_are_none_and_streaming_is_healthy(alice, as_alice, client):
    post_status(alice.uid, "not pinned")
    for query in ("pinned=true", "only_media=true"):
        assert as_alice("get", f"/api/v1/accounts/{alice.uid}/statuses?{query}")[1] == []
    assert len(as_alice("get", f"/api/v1/accounts/{alice.uid}/statuses")[1]) == 1
    assert client.get("/api/v1/streaming/health").content == b"OK"
