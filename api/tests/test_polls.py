"""Polls in the client API: posting one, the Poll entity, voting (HTTP and Mastodon.py)."""

import json
import time

from django.test import Client

from socialsite import jobs
from socialsite import keys as infra_keys
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.polls import services as polls
from timeline.posting import services as posting


def new_poll(uid, **spec):
    return posting.post_status(
        uid, "Which?", poll=polls.check_poll(["Tea", "Coffee"], 3600, **spec)
    )


def test_posting_a_poll_as_json_shows_it_on_the_status(alice, api_as):
    code, status, _ = api_as(alice)(
        "post",
        "/api/v1/statuses",
        {"status": "Lunch?", "poll": {"options": ["Soup", "Salad"], "expires_in": 600}},
    )
    assert code == 200
    poll = status["poll"]
    assert poll["id"] == status["id"] and poll["multiple"] is False
    assert [o["title"] for o in poll["options"]] == ["Soup", "Salad"]
    assert [o["votes_count"] for o in poll["options"]] == [0, 0]
    assert poll["expired"] is False and poll["votes_count"] == 0 and poll["voters_count"] == 0
    # The author counts as having voted, as Mastodon's.
    assert poll["voted"] is True and poll["own_votes"] == []
    assert poll["expires_at"].endswith("Z")


def test_posting_a_poll_as_a_form(alice, token_for):
    response = Client().post(
        "/api/v1/statuses",
        {
            "status": "Lunch?",
            "poll[options][]": ["Soup", "Salad", "Bread"],
            "poll[expires_in]": "300",
            "poll[multiple]": "true",
            "poll[hide_totals]": "true",
        },
        **token_for(alice),
    )
    assert response.status_code == 200
    poll = response.json()["poll"]
    assert len(poll["options"]) == 3 and poll["multiple"] is True
    # Totals hidden until it closes.
    assert [o["votes_count"] for o in poll["options"]] == [None, None, None]


def test_a_status_without_a_poll_has_none(alice, api_as):
    _, status, _ = api_as(alice)("post", "/api/v1/statuses", {"status": "plain"})
    assert status["poll"] is None


def test_a_bad_poll_is_a_422_and_posts_nothing(alice, api_as):
    call = api_as(alice)
    for poll in (
        {"options": ["one"], "expires_in": 600},
        {"options": ["a", "b"], "expires_in": 60},
        {"options": ["a", "b"]},
        {"options": "a,b", "expires_in": 600},
        "yes",
    ):
        code, body, _ = call("post", "/api/v1/statuses", {"status": "x", "poll": poll})
        assert code == 422 and "error" in body
    assert feeds.get_status_messages(alice.uid, "profile") == []


def test_get_a_poll_and_vote_in_it(alice, bob, api_as):
    sid = new_poll(alice.uid)
    call = api_as(bob)
    code, poll, _ = call("get", f"/api/v1/polls/{sid}")
    assert code == 200 and poll["voted"] is False and poll["own_votes"] == []
    code, poll, _ = call("post", f"/api/v1/polls/{sid}/votes", {"choices": ["1"]})
    assert code == 200
    assert poll["voted"] is True and poll["own_votes"] == [1]
    assert [o["votes_count"] for o in poll["options"]] == [0, 1] and poll["voters_count"] == 1
    _, status, _ = call("get", f"/api/v1/statuses/{sid}")
    assert status["poll"]["own_votes"] == [1]


def test_a_second_vote_and_bad_choices_are_422(alice, bob, api_as):
    sid = new_poll(alice.uid)
    call = api_as(bob)
    for choices in ([], ["5"], ["0", "1"], None):
        body = {} if choices is None else {"choices": choices}
        code, _, _ = call("post", f"/api/v1/polls/{sid}/votes", body)
        assert code == 422
    assert call("post", f"/api/v1/polls/{sid}/votes", {"choices": [0]})[0] == 200
    code, body, _ = call("post", f"/api/v1/polls/{sid}/votes", {"choices": [1]})
    assert code == 422 and "already voted" in body["error"]


def test_polls_gone_or_unknown_are_404(alice, bob, api_as):
    plain = posting.post_status(alice.uid, "no poll")
    call = api_as(bob)
    assert call("get", f"/api/v1/polls/{plain}")[0] == 404
    assert call("get", "/api/v1/polls/999999")[0] == 404
    assert call("post", "/api/v1/polls/999999/votes", {"choices": [0]})[0] == 404


def test_votes_past_the_limit_are_429(alice, bob, api_as, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "poll_votes": (1, 600)}
    first, second = new_poll(alice.uid), new_poll(alice.uid)
    call = api_as(bob)
    assert call("post", f"/api/v1/polls/{first}/votes", {"choices": [0]})[0] == 200
    code, _, response = call("post", f"/api/v1/polls/{second}/votes", {"choices": [0]})
    assert code == 429 and int(response["Retry-After"]) > 0


def test_the_instance_states_the_poll_limits(client):
    polls_config = client.get("/api/v2/instance").json()["configuration"]["polls"]
    assert polls_config == {
        "max_options": 4,
        "max_characters_per_option": 50,
        "min_expiration": 300,
        "max_expiration": 604800,
    }


def test_a_closed_polls_notification_is_a_poll_notification(alice, bob, api_as, redis_conn):
    sid = new_poll(alice.uid)
    polls.vote(bob.uid, sid, [0])
    redis_conn.hset(keys.status_key(sid), "poll_expires", int(time.time()) - 1)
    jobs.schedule(redis_conn, polls.close_job(sid), 0)
    jobs.work(burst=True)
    _, found, _ = api_as(bob)("get", "/api/v1/notifications")
    assert [(n["type"], n["status"]["id"]) for n in found] == [("poll", str(sid))]
    assert found[0]["status"]["poll"]["expired"] is True
    assert found[0]["account"]["username"] == "alice"
    assert redis_conn.zcard(infra_keys.SCHEDULED_JOBS) == 0
    assert json.loads(json.dumps(found))  # plain JSON


def test_mastodon_py_creates_a_poll_and_votes(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    poll = alice.make_poll(["Tea", "Coffee", "Water"], expires_in=3600, multiple=True)
    status = alice.status_post("What do you drink?", poll=poll)
    assert [o.title for o in status.poll.options] == ["Tea", "Coffee", "Water"]
    assert status.poll.multiple is True
    voted = bob.poll_vote(status.poll.id, [0, 2])
    assert voted.voted is True and voted.own_votes == [0, 2]
    assert [o.votes_count for o in voted.options] == [1, 0, 1]
    assert bob.poll(status.poll.id).voters_count == 1
    assert alice.status(status.id).poll.votes_count == 2
