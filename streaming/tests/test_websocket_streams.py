"""The WebSocket endpoints, end to end: a real daphne process, real Redis, a real client."""

import json

import pytest

from accounts.keys import user_key
from accounts.services import create_user, end_sessions, uid_for_login
from streaming.services import list_stream_keys, revoke_stream_key
from timeline.feeds.selectors import get_status_messages
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status
from timeline.reactions import services as reactions

from .clients import last_words, refusal, subscribers, wait_for_no_streams

pytestmark = pytest.mark.django_db(transaction=True)


def next_event(socket, timeout: float = 10) -> dict:
    return json.loads(socket.recv(timeout=timeout))


def test_a_sample_socket_sends_one_status_per_text_frame(ws_stream, alice_uid, alice_key):
    socket = ws_stream("/statuses/sample.json", {"identifier": alice_key, "percent": 100})
    first = post_status(alice_uid, "first", location="1,2")
    second = post_status(alice_uid, "second")
    event = next_event(socket)
    assert (event["id"], event["message"], event["location"]) == (first, "first", "1,2")
    assert next_event(socket)["id"] == second


def test_a_filter_socket_takes_its_filters_in_the_query_string(ws_stream, alice_uid, alice_key):
    bob = create_user("bob", "Bob")
    socket = ws_stream(
        "/statuses/filter.json", {"identifier": alice_key, "track": "redis", "follow": "carol"}
    )
    post_status(bob, "python")
    wanted = post_status(bob, "REDIS!")
    assert next_event(socket)["id"] == wanted
    delete_status(bob, wanted)
    assert next_event(socket) == {"id": wanted, "deleted": True}


@pytest.mark.parametrize(
    ("path", "params", "code", "error"),
    [
        ("/statuses/sample.json", {}, 4401, "stream key"),
        ("/statuses/sample.json", {"identifier": "made-up"}, 4401, "Unknown stream key"),
        ("/statuses/sample.json", {"identifier": "KEY", "percent": "500"}, 4400, "percent"),
        ("/statuses/filter.json", {"identifier": "KEY"}, 4400, "at least one of track"),
        ("/statuses/filter.json", {"identifier": "KEY", "location": "0,0,1"}, 4400, "4 numbers"),
        ("/statuses/filter.json", {"identifier": "KEY", "follow": "a b"}, 4400, "not a login"),
        ("/statuses/firehose.json", {"identifier": "KEY"}, 4404, "No such stream"),
        ("/somewhere/else/", {"identifier": "KEY"}, 4404, "No such stream"),
    ],
)
def test_a_bad_socket_gets_an_error_frame_and_a_close_code_and_opens_no_stream(
    ws_stream, redis_conn, alice_uid, alice_key, path, params, code, error
):
    params = {name: alice_key if value == "KEY" else value for name, value in params.items()}
    last, close_code = refusal(ws_stream, path, params)
    assert close_code == code
    assert error in last["error"]
    assert subscribers(redis_conn) == 0
    assert list_stream_keys(alice_uid)[0]["last_used"] is None


def test_a_third_socket_on_a_key_is_closed_with_4429(ws_stream, alice_key):
    for _ in range(2):
        ws_stream("/statuses/sample.json", {"identifier": alice_key})
    last, code = refusal(ws_stream, "/statuses/sample.json", {"identifier": alice_key})
    assert code == 4429
    assert "2 open streams" in last["error"]


def test_a_suspended_user_is_closed_with_4403(ws_stream, redis_conn, alice_uid, alice_key):
    redis_conn.hset(user_key(alice_uid), "suspended", "1")
    last, code = refusal(ws_stream, "/statuses/sample.json", {"identifier": alice_key})
    assert code == 4403
    assert "suspended" in last["error"]


def test_suspending_a_streaming_user_ends_their_socket(ws_stream, redis_conn, alice_uid, alice_key):
    socket = ws_stream("/statuses/sample.json", {"identifier": alice_key})
    redis_conn.hset(user_key(alice_uid), "suspended", "1")
    last, code = last_words(socket)
    assert code == 4403
    assert last["disconnect"]["code"] == 4403


def test_revoking_a_key_closes_its_sockets_with_4401(ws_stream, alice_uid, alice_key):
    socket = ws_stream("/statuses/sample.json", {"identifier": alice_key})
    revoke_stream_key(alice_uid, list_stream_keys(alice_uid)[0]["id"])
    last, code = last_words(socket)
    assert code == 4401
    assert last == {"disconnect": {"code": 4401, "reason": "This stream key was revoked."}}


def test_closed_sockets_leave_no_subscription_and_no_client_behind(
    ws_stream, redis_conn, alice_key
):
    sockets = [ws_stream("/statuses/sample.json", {"identifier": alice_key}) for _ in range(2)]
    assert subscribers(redis_conn) == 1
    for socket in sockets:
        socket.close()
    wait_for_no_streams(redis_conn)


def test_the_home_socket_streams_the_logged_in_users_home_timeline(ws_stream, make_user):
    cookie = make_user("dora").cookie
    dora, erin, fred = uid_for_login("dora"), create_user("erin", "Erin"), create_user("fred", "F")
    follow_user(dora, erin)
    socket = ws_stream("/statuses/home.json", additional_headers={"Cookie": cookie})
    post_status(fred, "not followed")
    own = post_status(dora, "mine")
    followed = post_status(erin, "followed")
    assert [next_event(socket)["id"] for _ in range(2)] == [own, followed]
    follow_user(dora, fred)
    newly_followed = post_status(fred, "now followed")
    assert next_event(socket)["id"] == newly_followed
    delete_status(erin, followed)
    assert next_event(socket) == {"id": followed, "deleted": True}


def test_the_home_socket_leaves_out_what_fan_out_leaves_out_of_home(ws_stream, make_user):
    cookie = make_user("dora").cookie
    dora = uid_for_login("dora")
    erin, fred, gina = (create_user(login, login.title()) for login in ("erin", "fred", "gina"))
    follow_user(dora, erin)
    follow_user(dora, gina)
    recent = post_status(erin, "already in dora's home")
    socket = ws_stream("/statuses/home.json", additional_headers={"Cookie": cookie})
    # A reply to someone dora doesn't follow, and a repost of what her home already shows.
    post_status(erin, "@fred yes", in_reply_to=post_status(fred, "anyone?"))
    reactions.repost(gina, recent)
    question = post_status(gina, "anyone?")
    answered = post_status(erin, "@gina yes", in_reply_to=question)
    assert [next_event(socket)["id"] for _ in range(2)] == [question, answered]
    # As the stored home: nothing live that a reload would take away.
    assert [s["id"] for s in get_status_messages(dora)] == [answered, question, recent]


def test_the_home_socket_needs_a_session(ws_stream):
    assert refusal(ws_stream, "/statuses/home.json")[1] == 4401


def test_a_session_ended_everywhere_can_not_open_the_home_socket(ws_stream, make_user):
    cookie = make_user("dora").cookie
    dora = uid_for_login("dora")
    socket = ws_stream("/statuses/home.json", additional_headers={"Cookie": cookie})
    own = post_status(dora, "mine")
    assert next_event(socket)["id"] == own  # the server has her session and user cached
    end_sessions(dora)
    assert (
        refusal(ws_stream, "/statuses/home.json", additional_headers={"Cookie": cookie})[1] == 4401
    )


def test_a_page_on_another_site_can_not_stream_with_its_visitors_session(ws_stream, make_user):
    cookie = make_user("dora").cookie
    refused = refusal(
        ws_stream,
        "/statuses/home.json",
        additional_headers={"Cookie": cookie},
        origin="http://evil.example",
    )
    assert refused[1] == 4401
