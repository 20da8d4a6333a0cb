"""Quotes in the client API (Mastodon 4.5): posting with `quoted_status_id`, the `quote`
and `quote_approval` fields, a status's quotes, revoking, a status's quote policy; bad
input and refusals (nothing changed), and the rate limit."""

import pytest
from django.test import override_settings

from timeline.feeds.selectors import get_status_messages
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status
from timeline.quotes.services import set_default_policy
from timeline.safety.services import block
from timeline.statuses.selectors import get_status


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


@pytest.fixture
def as_bob(bob, api_as):
    return api_as(bob)


def test_a_quote_posted_shows_the_quoted_status_and_its_approval(alice, bob, as_alice):
    quoted = post_status(bob.uid, "quote me")
    status, body, _ = as_alice(
        "post", "/api/v1/statuses", {"status": "quoting", "quoted_status_id": str(quoted)}
    )
    assert status == 200
    assert body["quote"]["state"] == "accepted"
    assert body["quote"]["quoted_status"]["id"] == str(quoted)
    assert body["quote"]["quoted_status"]["account"]["username"] == "bob"
    assert body["quote_approval"] == {
        "automatic": ["public"],
        "manual": [],
        "current_user": "automatic",
    }
    status, body, _ = as_alice("get", f"/api/v1/statuses/{quoted}")
    assert body["quotes_count"] == 1 and body["quote"] is None


def test_a_quote_of_a_deleted_or_hidden_status_has_no_quoted_status(alice, bob, as_alice):
    quoted = post_status(bob.uid, "going")
    quote = post_status(alice.uid, "look", quote_id=quoted)
    block(bob.uid, alice.uid)
    _, body, _ = as_alice("get", f"/api/v1/statuses/{quote}")
    assert body["quote"] == {"state": "unauthorized", "quoted_status": None}
    delete_status(bob.uid, quoted)
    _, body, _ = as_alice("get", f"/api/v1/statuses/{quote}")
    assert body["quote"] == {"state": "deleted", "quoted_status": None}


def test_bad_quotes_are_refused_and_post_nothing(alice, bob, as_alice):
    set_default_policy(bob.uid, "nobody")
    closed = post_status(bob.uid, "mine alone")
    for data, code in (
        ({"status": "hi", "quoted_status_id": "999"}, 404),
        ({"status": "hi", "quoted_status_id": "nope"}, 422),
        ({"status": "hi", "quoted_status_id": str(closed)}, 403),
        ({"status": "hi", "quote_approval_policy": "friends"}, 422),
    ):
        status, body, _ = as_alice("post", "/api/v1/statuses", data)
        assert status == code, data
        assert set(body) == {"error"}
    assert get_status_messages(alice.uid, "profile") == []
    _, body, _ = as_alice("get", f"/api/v1/statuses/{closed}")
    assert body["quote_approval"]["automatic"] == [] and body["quotes_count"] == 0


def test_the_quoted_author_lists_and_revokes_quotes(alice, bob, as_alice, as_bob):
    quoted = post_status(bob.uid, "popular")
    quote = post_status(alice.uid, "indeed", quote_id=quoted)
    status, body, _ = as_bob("get", f"/api/v1/statuses/{quoted}/quotes")
    assert status == 200 and [s["id"] for s in body] == [str(quote)]
    # Only the quoted author may revoke.
    status, _, _ = as_alice("post", f"/api/v1/statuses/{quoted}/quotes/{quote}/revoke")
    assert status == 403
    assert get_status(quoted)["quotes"] == 1
    status, body, _ = as_bob("post", f"/api/v1/statuses/{quoted}/quotes/{quote}/revoke")
    assert status == 200 and body["id"] == str(quote)
    assert body["quote"] == {"state": "revoked", "quoted_status": None}
    assert get_status(quoted)["quotes"] == 0
    # Again: Mastodon's answer, the quote as it is.
    status, body, _ = as_bob("post", f"/api/v1/statuses/{quoted}/quotes/{quote}/revoke")
    assert status == 200 and body["quote"]["state"] == "revoked"
    status, _, _ = as_bob("post", f"/api/v1/statuses/{quoted}/quotes/999/revoke")
    assert status == 404


def test_a_statuses_quote_policy_is_changed_by_its_author_alone(alice, bob, as_alice, as_bob):
    mine = post_status(bob.uid, "mine")
    status, body, _ = as_bob(
        "put", f"/api/v1/statuses/{mine}/interaction_policy", {"quote_approval_policy": "followers"}
    )
    assert status == 200
    assert body["quote_approval"]["automatic"] == ["followers"]
    status, _, _ = as_alice(
        "put", f"/api/v1/statuses/{mine}/interaction_policy", {"quote_approval_policy": "public"}
    )
    assert status == 403
    status, _, _ = as_bob(
        "put", f"/api/v1/statuses/{mine}/interaction_policy", {"quote_approval_policy": "all"}
    )
    assert status == 422
    status, _, _ = as_alice(
        "post", "/api/v1/statuses", {"status": "hi", "quoted_status_id": str(mine)}
    )
    assert status == 403
    follow_user(alice.uid, bob.uid)
    status, _, _ = as_alice(
        "post", "/api/v1/statuses", {"status": "hi", "quoted_status_id": str(mine)}
    )
    assert status == 200


def test_a_quote_notifies_as_mastodons_quote_type(alice, bob, as_bob):
    quoted = post_status(bob.uid, "hear me")
    quote = post_status(alice.uid, "heard", quote_id=quoted)
    _, body, _ = as_bob("get", "/api/v1/notifications")
    (note,) = body
    assert note["type"] == "quote" and note["status"]["id"] == str(quote)
    assert note["status"]["quote"]["quoted_status"]["id"] == str(quoted)


@override_settings(RATE_LIMITS={"reactions": (1, 60)})
def test_revoking_is_rate_limited(alice, bob, as_bob):
    quoted = post_status(bob.uid, "x")
    first = post_status(alice.uid, "a", quote_id=quoted)
    second = post_status(alice.uid, "b", quote_id=quoted)
    assert as_bob("post", f"/api/v1/statuses/{quoted}/quotes/{first}/revoke")[0] == 200
    status, body, response = as_bob("post", f"/api/v1/statuses/{quoted}/quotes/{second}/revoke")
    assert status == 429 and response["Retry-After"]
    assert get_status(quoted)["quotes"] == 1


def test_a_reblogged_quote_shows_its_quoted_status_inside_the_reblog(
    alice, bob, make_user, as_alice
):
    from timeline.reactions.services import repost

    quoted = post_status(bob.uid, "deep")
    quote = post_status(make_user().uid, "quoting deep", quote_id=quoted)
    reblog = repost(alice.uid, quote)
    _, body, _ = as_alice("get", f"/api/v1/statuses/{reblog}")
    assert body["reblog"]["quote"]["quoted_status"]["id"] == str(quoted)
    assert body["reblog"]["quote"]["quoted_status"]["account"]["username"] == "bob"
