"""Bookmarks, pins and followed tags through the API (the Django test client, with
tokens made directly): entities, paging, bad input and rate limits."""

import pytest

from socialsite import jobs
from timeline.keeps import selectors
from timeline.posting.services import post_status
from timeline.safety.services import set_private
from timeline.tests.pages import home_entries


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


def test_bookmarks_mark_the_entity_and_page_by_link_headers(alice, bob, as_alice):
    posted = [post_status(bob.uid, f"status {n}") for n in range(5)]
    for status_id in posted:
        status, entity, _ = as_alice("post", f"/api/v1/statuses/{status_id}/bookmark")
        assert status == 200 and entity["bookmarked"] is True
    assert as_alice("get", f"/api/v1/statuses/{posted[0]}")[1]["bookmarked"] is True
    status, page, response = as_alice("get", "/api/v1/bookmarks", {"limit": 2})
    assert [int(s["id"]) for s in page] == posted[::-1][:2]
    assert 'rel="next"' in response["Link"]
    seen = [int(s["id"]) for s in page]
    while 'rel="next"' in response.get("Link", ""):
        next_url = response["Link"].split(">")[0].lstrip("<")
        _, page, response = as_alice("get", next_url.split("testserver")[-1])
        seen += [int(s["id"]) for s in page]
    assert seen == posted[::-1]
    status, entity, _ = as_alice("post", f"/api/v1/statuses/{posted[0]}/unbookmark")
    assert status == 200 and entity["bookmarked"] is False
    # Idempotent, as Mastodon's.
    assert as_alice("post", f"/api/v1/statuses/{posted[0]}/unbookmark")[0] == 200
    assert len(selectors.bookmarked_ids(alice.uid)) == 4


def test_bookmarks_are_the_callers_alone(alice, bob, api_as, as_alice):
    status_id = post_status(bob.uid, "mine to keep")
    as_alice("post", f"/api/v1/statuses/{status_id}/bookmark")
    assert api_as(bob)("get", f"/api/v1/statuses/{status_id}")[1]["bookmarked"] is False
    assert api_as(bob)("get", "/api/v1/bookmarks")[1] == []


def test_keeping_what_is_gone_is_404_and_keeps_nothing(alice, as_alice):
    for path in ("bookmark", "pin"):
        status, body, _ = as_alice("post", f"/api/v1/statuses/99/{path}")
        assert status == 404 and set(body) == {"error"}
        assert as_alice("post", f"/api/v1/statuses/nope/{path}")[0] == 404
    assert selectors.bookmarked_ids(alice.uid) == [] and selectors.pinned_ids(alice.uid) == []


def test_pins_show_on_the_account_and_refuse_others_statuses(alice, bob, as_alice):
    mine = post_status(alice.uid, "pin me")
    post_status(alice.uid, "not pinned")
    status, entity, _ = as_alice("post", f"/api/v1/statuses/{mine}/pin")
    assert status == 200 and entity["pinned"] is True
    path = f"/api/v1/accounts/{alice.uid}/statuses"
    assert [int(s["id"]) for s in as_alice("get", path, {"pinned": "true"})[1]] == [mine]
    assert len(as_alice("get", path)[1]) == 2
    theirs = post_status(bob.uid, "not yours")
    status, body, _ = as_alice("post", f"/api/v1/statuses/{theirs}/pin")
    assert status == 422 and "your own" in body["error"]
    as_alice("post", f"/api/v1/statuses/{mine}/unpin")
    assert as_alice("get", path, {"pinned": "true"})[1] == []


def test_a_followers_only_status_cant_be_pinned(alice, as_alice):
    set_private(alice.uid, True)
    status_id = post_status(alice.uid, "followers only")
    status, body, _ = as_alice("post", f"/api/v1/statuses/{status_id}/pin")
    assert status == 422 and selectors.pinned_ids(alice.uid) == []


def test_followed_tags_reach_home_and_list_with_following(alice, bob, as_alice):
    status, tag, _ = as_alice("post", "/api/v1/tags/Redis/follow")
    assert status == 200 and tag["name"] == "redis" and tag["following"] is True
    assert as_alice("get", "/api/v1/tags/redis")[1]["following"] is True
    status_id = post_status(bob.uid, "#redis news")
    jobs.work(burst=True)
    assert home_entries(alice.uid) == [status_id]
    assert [int(s["id"]) for s in as_alice("get", "/api/v1/timelines/home")[1]] == [status_id]
    assert [t["name"] for t in as_alice("get", "/api/v1/followed_tags")[1]] == ["redis"]
    status, tag, _ = as_alice("post", "/api/v1/tags/redis/unfollow")
    assert status == 200 and tag["following"] is False
    assert as_alice("get", "/api/v1/followed_tags")[1] == []


def test_followed_tags_page_by_link_headers(alice, as_alice):
    for name in ("one", "two", "three"):
        as_alice("post", f"/api/v1/tags/{name}/follow")
    _, page, response = as_alice("get", "/api/v1/followed_tags", {"limit": 2})
    assert [t["name"] for t in page] == ["three", "two"]
    next_url = response["Link"].split(">")[0].lstrip("<").split("testserver")[-1]
    _, rest, response = as_alice("get", next_url)
    assert [t["name"] for t in rest] == ["one"] and "Link" not in response


def test_a_bad_tag_is_404_and_follows_nothing(alice, as_alice, api_as):
    for bad in ("no%20spaces", "x" * 101):
        assert as_alice("post", f"/api/v1/tags/{bad}/follow")[0] == 404
        assert as_alice("get", f"/api/v1/tags/{bad}")[0] == 404
    assert selectors.followed_tags(alice.uid) == []


def test_a_visitor_reads_a_tag_but_doesnt_follow_it(client):
    answer = client.get("/api/v1/tags/redis")
    assert answer.status_code == 200 and answer.json()["following"] is False
    assert client.post("/api/v1/tags/redis/follow").status_code == 401


def test_keeping_past_the_rate_limit_is_429_with_retry_after(alice, bob, as_alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "keeps": (1, 600)}
    status_id = post_status(bob.uid, "once")
    assert as_alice("post", f"/api/v1/statuses/{status_id}/bookmark")[0] == 200
    status, body, response = as_alice("post", "/api/v1/tags/redis/follow")
    assert status == 429 and int(response["Retry-After"]) > 0
    assert body["error"].startswith("Too many bookmarks, pins and followed tags")
    assert selectors.followed_tags(alice.uid) == []
