"""The /live/ WebSocket of the site's own pages, end to end (real daphne, Redis and
client): a user's notifications and direct messages reach them and no one else, and
never any stream of the streaming API."""

import json

import pytest

from accounts.services import create_user, uid_for_login
from streaming.services import create_stream_key
from timeline.direct import services as direct
from timeline.graph.services import follow_user
from timeline.keys import PRIVATE_CHANNEL
from timeline.posting.services import post_status
from timeline.reactions import services as reactions

from .clients import refusal, subscribers

pytestmark = pytest.mark.django_db(transaction=True)


def next_event(socket, timeout: float = 10) -> dict:
    return json.loads(socket.recv(timeout=timeout))


def test_a_visitor_is_closed_with_4401(ws_stream):
    assert refusal(ws_stream, "/live/") == ({"error": "Log in first."}, 4401)


def test_a_users_notifications_and_messages_reach_them_and_no_one_else(
    ws_stream, make_user, redis_conn
):
    dora_cookie, erin_cookie = make_user("dora").cookie, make_user("erin").cookie
    dora, erin = uid_for_login("dora"), uid_for_login("erin")
    fred = create_user("fred", "Fred")
    dora_socket = ws_stream("/live/", additional_headers={"Cookie": dora_cookie})
    erin_socket = ws_stream("/live/", additional_headers={"Cookie": erin_cookie})
    # Both sockets share the server process's one subscription to the private channel.
    assert subscribers(redis_conn, PRIVATE_CHANNEL) == 1

    reactions.like(fred, post_status(dora, "like me"))
    liked = next_event(dora_socket)
    assert liked["type"] == "notification" and liked["to"] == [dora]
    assert liked["notification"]["text"] == "@fred liked your status"
    assert liked["unread_notifications"] == 1

    conversation = direct.start_conversation(fred, "erin", "psst, erin")
    message = next_event(erin_socket)
    assert (message["type"], message["conversation"]) == ("message", conversation)
    assert message["message"]["text"] == "psst, erin" and message["unread_messages"] == 1

    # Dora's socket got nothing of Erin's: the next thing it hears is her own.
    follow_user(erin, dora)
    followed = next_event(dora_socket)
    assert followed["notification"]["text"] == "@erin followed you"


def test_a_cross_site_page_gets_no_events(ws_stream, make_user):
    cookie = make_user("dora").cookie
    socket = ws_stream("/live/", additional_headers={"Cookie": cookie, "Origin": "http://evil"})
    assert next_event(socket) == {"error": "Log in first."}


def test_messages_reach_no_stream_of_the_streaming_api(ws_stream, make_user):
    cookie = make_user("dora").cookie
    dora = uid_for_login("dora")
    erin = create_user("erin", "Erin")
    follow_user(dora, erin)
    key = create_stream_key(dora, "tests")
    streams = [
        ws_stream("/statuses/sample.json", {"identifier": key, "percent": 100}),
        ws_stream("/statuses/filter.json", {"identifier": key, "track": "secret,marker"}),
        ws_stream("/statuses/home.json", additional_headers={"Cookie": cookie}),
    ]
    conversation = direct.start_conversation(erin, "dora", "a secret for dora")
    direct.send_message(dora, conversation, "another secret")
    marker = post_status(erin, "marker, posted after the messages")
    for stream in streams:
        # Events arrive in the order published: a message would come before the marker.
        event = next_event(stream)
        assert event["id"] == marker and "secret" not in json.dumps(event)


def test_a_user_has_at_most_live_sockets_per_user_open(ws_stream, make_user):
    # The server process reads the setting from the environment: 10 by default.
    cookie = make_user("dora").cookie
    for _ in range(10):
        ws_stream("/live/", additional_headers={"Cookie": cookie})
    assert refusal(ws_stream, "/live/", additional_headers={"Cookie": cookie}) == (
        {"error": "At most 10 live pages at once: close one."},
        4429,
    )
