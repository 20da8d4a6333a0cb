"""Search (v2) and account search through the search page's selectors: what each type
finds, offset and limit, what the caller may not see left out, and bad queries."""

import pytest

from accounts.services import set_suspended
from timeline.posting.services import post_status
from timeline.safety import services as safety


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


def test_search_finds_accounts_statuses_and_hashtags(alice, bob, as_alice):
    tagged = post_status(bob.uid, "redis streams in #redisconf")
    status, found, _ = as_alice("get", "/api/v2/search?q=bob")
    assert status == 200
    assert [a["username"] for a in found["accounts"]] == ["bob"]
    assert (found["statuses"], found["hashtags"]) == ([], [])
    found = as_alice("get", "/api/v2/search?q=redis")[1]
    assert [s["id"] for s in found["statuses"]] == [str(tagged)]
    assert [t["name"] for t in found["hashtags"]] == ["redisconf"]
    assert found["hashtags"][0]["url"] == "http://testserver/tags/redisconf/"
    only = as_alice("get", "/api/v2/search?q=redis&type=hashtags&resolve=true")[1]
    assert (only["statuses"], len(only["hashtags"])) == ([], 1)


def test_search_pages_by_offset_and_limit(alice, as_alice):
    ids = [str(post_status(alice.uid, f"paged words {n}")) for n in range(5)][::-1]
    for offset, limit in ((0, 2), (2, 2), (1, 3), (4, 2), (5, 2)):
        query = f"q=paged&type=statuses&offset={offset}&limit={limit}"
        found = as_alice("get", f"/api/v2/search?{query}")[1]["statuses"]
        assert [s["id"] for s in found] == ids[offset : offset + limit], query


def test_search_leaves_out_what_the_caller_may_not_see(alice, bob, make_user, as_alice, client):
    safety.set_private(bob.uid, True)
    post_status(bob.uid, "secret plans")
    carol = make_user("carol")
    post_status(carol.uid, "secret recipes")
    safety.block(carol.uid, alice.uid)
    assert as_alice("get", "/api/v2/search?q=secret")[1]["statuses"] == []
    assert client.get("/api/v2/search?q=secret").json()["statuses"] != []
    set_suspended(carol.uid, True)
    assert client.get("/api/v2/search?q=carol&type=accounts").json()["accounts"] == []


def test_account_search_finds_people_by_login_or_name(alice, bob, as_alice, client):
    status, found, _ = as_alice("get", "/api/v1/accounts/search?q=bo")
    assert status == 200 and [a["username"] for a in found] == ["bob"]
    assert as_alice("get", "/api/v1/accounts/search?q=bo&offset=1")[1] == []
    assert client.get("/api/v1/accounts/search?q=bo").status_code == 401


def test_bad_searches_are_422(as_alice):
    for query in (
        "",
        "q=",
        "q=x&type=people",
        "q=x&offset=-1",
        "q=x&offset=lots",
        "q=x&limit=many",
        "q=%23%23&type=hashtags",
        "q=%23%23&type=statuses",
    ):
        status, body, _ = as_alice("get", f"/api/v2/search?{query}")
        assert (status, set(body)) == (422, {"error"}), query
    # Without a type, a type that can't take the query finds nothing.
    assert as_alice("get", "/api/v2/search?q=%23%23")[1]["hashtags"] == []


def test_searches_past_their_limit_are_429_and_share_the_pages_limit(
    alice, as_alice, client, settings
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "searches": (2, 60)}
    assert alice.client.get("/search/", {"q": "page"}).status_code == 200
    assert as_alice("get", "/api/v1/accounts/search?q=bo")[0] == 200
    status, body, response = as_alice("get", "/api/v2/search?q=redis")
    assert status == 429
    assert body["error"].startswith("Too many searches for now")
    assert int(response["Retry-After"]) > 0
    # A visitor is counted by address.
    assert client.get("/api/v2/search?q=redis").status_code == 200
    assert client.get("/api/v2/search?q=redis").status_code == 200
    assert client.get("/api/v2/search?q=redis").status_code == 429


def test_a_hashtag_used_only_in_private_statuses_is_not_found(alice, bob, as_alice, api_as):
    safety.set_private(bob.uid, True)
    post_status(bob.uid, "for my followers: #secretplans")
    for caller in (as_alice, api_as(bob)):
        found = caller("get", "/api/v2/search?q=secretplans&type=hashtags")[1]
        assert found["hashtags"] == []
    assert as_alice("get", "/api/v2/search?q=%23secret")[1]["hashtags"] == []
