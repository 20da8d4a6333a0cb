"""The chunked HTTP endpoints, end to end: a real daphne process and real Redis."""

import pytest

from accounts.keys import user_key
from accounts.services import create_user
from streaming.filters import sample_filter
from streaming.services import list_stream_keys, revoke_stream_key, stream_stats
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status

from .clients import subscribers, wait_for_no_streams, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLE = "/statuses/sample.json"
FILTER = "/statuses/filter.json"


def test_a_sample_stream_sends_its_headers_at_once_then_one_chunk_per_status(
    http_stream, alice_uid, alice_key
):
    response = http_stream("GET", SAMPLE, {"identifier": alice_key, "percent": 100})
    assert response.status == 200
    assert response.headers["transfer-encoding"] == "chunked"
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "content-encoding" not in response.headers
    first = post_status(alice_uid, "first", location="48.85,2.35")
    second = post_status(alice_uid, "second")
    event = response.next_event()
    assert event["id"] == first
    assert event["message"] == "first"
    assert event["login"] == "alice"
    assert event["location"] == "48.85,2.35"
    assert response.next_event()["id"] == second


def test_every_sample_stream_on_a_key_passes_the_same_statuses(http_stream, alice_uid, alice_key):
    streams = [http_stream("GET", SAMPLE, {"identifier": alice_key, "percent": 50}) for _ in "ab"]
    ids = [post_status(alice_uid, f"status {n}") for n in range(20)]
    sampled = [i for i in ids if sample_filter(alice_key, 50)({"id": i})]
    for response in streams:
        assert [response.next_event()["id"] for _ in sampled] == sampled


def test_a_filter_stream_passes_matching_statuses_and_their_deletions_only(
    http_stream, alice_uid, alice_key
):
    bob = create_user("bob", "Bob")
    response = http_stream("POST", f"{FILTER}?identifier={alice_key}", form={"track": "redis"})
    assert response.status == 200
    ignored = post_status(bob, "python")
    wanted = post_status(bob, "I like #Redis!")
    assert response.next_event()["id"] == wanted
    delete_status(bob, ignored)
    delete_status(bob, wanted)
    assert response.next_event() == {"id": wanted, "deleted": True}


def test_filter_fields_combine_so_any_of_them_passes_an_event(http_stream, alice_uid, alice_key):
    bob, carol = create_user("bob", "Bob"), create_user("carol", "Carol")
    response = http_stream(
        "POST",
        FILTER,
        form={
            "identifier": alice_key,
            "track": "redis",
            "follow": "carol",
            "location": "-122.75,36.8,-121.75,37.8",
        },
    )
    post_status(bob, "nothing to see")
    by_track = post_status(bob, "redis")
    by_follow = post_status(carol, "hi")
    by_location = post_status(bob, "sunny", location="37.77,-122.42")
    assert [response.next_event()["id"] for _ in range(3)] == [by_track, by_follow, by_location]
    follow_user(bob, carol)
    event = response.next_event()
    assert event["event"] == "follow"
    assert event["source"] == {"id": bob, "login": "bob"}
    assert event["target"] == {"id": carol, "login": "carol"}


def test_the_key_may_come_in_an_authorization_header(http_stream, alice_uid, alice_key):
    response = http_stream(
        "GET", SAMPLE, {"percent": 100}, headers={"Authorization": f"Bearer {alice_key}"}
    )
    assert response.status == 200
    status_id = post_status(alice_uid, "hello")
    assert response.next_event()["id"] == status_id


@pytest.mark.parametrize(
    ("method", "path", "params", "form", "status", "error"),
    [
        ("GET", SAMPLE, {}, None, 401, "stream key"),
        ("GET", SAMPLE, {"identifier": "made-up"}, None, 401, "Unknown stream key"),
        ("GET", SAMPLE, {"identifier": "KEY", "percent": "0"}, None, 400, "percent"),
        ("GET", SAMPLE, {"identifier": "KEY", "percent": "many"}, None, 400, "percent"),
        ("POST", FILTER, {"identifier": "KEY"}, None, 400, "at least one of track"),
        ("POST", FILTER, {"identifier": "KEY"}, {"track": "x," * 401}, 400, "at most 400"),
        ("POST", FILTER, {"identifier": "KEY"}, {"track": "y" * 61}, 400, "60 bytes"),
        ("POST", FILTER, {"identifier": "KEY"}, {"follow": "a b"}, 400, "not a login"),
        ("POST", FILTER, {"identifier": "KEY"}, {"location": "1,2,3"}, 400, "4 numbers"),
        ("POST", FILTER, {"identifier": "KEY"}, {"location": "0,0,200,1"}, 400, "longitudes"),
        ("POST", SAMPLE, {"identifier": "KEY"}, None, 405, "GET"),
        ("GET", FILTER, {"identifier": "KEY", "track": "redis"}, None, 405, "POST"),
        ("GET", "/statuses/firehose.json", {"identifier": "KEY"}, None, 404, "No such stream"),
    ],
)
def test_a_bad_request_gets_a_json_error_and_opens_no_stream(
    http_stream, redis_conn, alice_uid, alice_key, method, path, params, form, status, error
):
    params = {name: alice_key if value == "KEY" else value for name, value in params.items()}
    response = http_stream(method, path, params, form=form)
    assert response.status == status
    assert error in response.json()["error"]
    assert response.headers["x-content-type-options"] == "nosniff"
    if status == 405:
        assert response.headers["allow"] in {"GET", "POST"}
    assert subscribers(redis_conn) == 0
    assert stream_stats()["clients"] == 0
    assert list_stream_keys(alice_uid)[0]["last_used"] is None


def test_a_body_that_is_not_a_form_is_refused(http_stream, alice_key):
    response = http_stream(
        "POST",
        f"{FILTER}?identifier={alice_key}",
        headers={"Content-Type": "application/json"},
        form={"track": "redis"},
    )
    assert response.status == 400
    assert "x-www-form-urlencoded" in response.json()["error"]


def test_too_many_form_fields_are_refused(http_stream, alice_key):
    response = http_stream("POST", f"{FILTER}?identifier={alice_key}", form=[("track", "x")] * 1001)
    assert response.status == 400
    assert "fields" in response.json()["error"]


def test_an_unknown_path_is_still_django_s_404(http_stream):
    assert http_stream("GET", "/statuses/nothing/here/").status == 404


def test_a_key_opens_two_streams_at_most(http_stream, alice_key):
    first = http_stream("GET", SAMPLE, {"identifier": alice_key})
    http_stream("GET", SAMPLE, {"identifier": alice_key})
    third = http_stream("GET", SAMPLE, {"identifier": alice_key})
    assert third.status == 429
    assert int(third.headers["retry-after"]) > 0
    assert "2 open streams" in third.json()["error"]
    first.close()
    wait_until(lambda: stream_stats()["clients"] == 1, message="the first stream closed")
    assert http_stream("GET", SAMPLE, {"identifier": alice_key}).status == 200


def test_a_suspended_users_key_is_refused_with_403(http_stream, redis_conn, alice_uid, alice_key):
    redis_conn.hset(user_key(alice_uid), "suspended", "1")
    response = http_stream("GET", SAMPLE, {"identifier": alice_key})
    assert response.status == 403
    assert "suspended" in response.json()["error"]


def test_revoking_a_key_ends_its_open_streams_with_a_last_line(http_stream, alice_uid, alice_key):
    response = http_stream("GET", SAMPLE, {"identifier": alice_key})
    [key] = list_stream_keys(alice_uid)
    revoke_stream_key(alice_uid, key["id"])
    assert response.next_event(timeout=15) == {
        "disconnect": {"code": 4401, "reason": "This stream key was revoked."}
    }
    assert response.next_chunk() == b""


def test_closed_streams_leave_no_subscription_and_no_client_behind(
    http_stream, redis_conn, alice_uid, alice_key
):
    streams = [http_stream("GET", SAMPLE, {"identifier": alice_key}) for _ in range(2)]
    assert subscribers(redis_conn) == 1
    for response in streams:
        response.close()
    wait_for_no_streams(redis_conn)
