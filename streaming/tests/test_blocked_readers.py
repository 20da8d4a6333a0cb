"""Every stream kind, end to end (real daphne, Redis and clients), for a reader someone
blocks and for a private account's follows: sample.json, filter.json's track, follow and
location and home.json, chunked and over WebSocket, opened with a session; and /live/,
which also closes once its user is suspended."""

import json

import pytest
from websockets.exceptions import ConnectionClosed

from accounts.services import create_user, set_suspended
from streaming.services import create_stream_key
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.reactions import services as reactions
from timeline.safety import services as safety

from .clients import last_words

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLE, FILTER, HOME = "/statuses/sample.json", "/statuses/filter.json", "/statuses/home.json"
IN_THE_BOX = "48.85,2.35"
BOX = "2,48,3,49"


@pytest.fixture
def both_streams(http_stream, ws_stream):
    """`both_streams(cookie, path, params)`: two streams of `path` with `params` on the
    session of `cookie`, a chunked one and a WebSocket, as the `next_event` of each; the
    chunked ones are closed before the WebSockets' fixture waits for no stream left."""
    chunked = []

    def open_both(cookie: str, path: str, params: dict) -> list:
        return chunked_and_websocket(http_stream, ws_stream, cookie, path, params, chunked)

    yield open_both
    for response in chunked:
        response.close()


def chunked_and_websocket(
    http_stream, ws_stream, cookie: str, path: str, params: dict, chunked: list
) -> list:
    headers = {"Cookie": cookie}
    if path == FILTER:
        response = http_stream("POST", path, form=params, headers=headers)
    else:
        response = http_stream("GET", path, params, headers=headers)
    assert response.status == 200
    chunked.append(response)
    socket = ws_stream(path, params, additional_headers=headers)
    return [response.next_event, lambda: json.loads(socket.recv(timeout=10))]


def test_a_blocked_reader_gets_none_of_the_blockers_statuses_on_any_public_stream(
    both_streams, make_user
):
    alice, bea = make_user("alice"), make_user("bea")
    carl, eve = create_user("carl", "Carl"), create_user("eve", "Eve")
    safety.block(alice.uid, bea.uid)
    streams = []
    for path, params in (
        (SAMPLE, {"percent": 100}),
        (FILTER, {"follow": "alice,eve,carl"}),
        (FILTER, {"track": "plans"}),
        (FILTER, {"location": BOX}),
    ):
        streams += both_streams(bea.cookie, path, params)
    safety.block(eve, bea.uid)  # while the streams are open
    post_status(alice.uid, "plans of alice", location=IN_THE_BOX)
    post_status(eve, "plans of eve", location=IN_THE_BOX)
    marker = post_status(carl, "plans of carl", location=IN_THE_BOX)
    for next_event in streams:
        assert next_event()["id"] == marker


def test_a_private_accounts_follow_reaches_no_pending_requester_or_blocked_user(
    both_streams, make_user
):
    pia, fay, rex, bea = (make_user(login) for login in ("pia", "fay", "rex", "bea"))
    carl = create_user("carl", "Carl")
    safety.set_private(pia.uid, True)
    follow_user(fay.uid, pia.uid)
    safety.approve_request(pia.uid, fay.uid)
    follow_user(rex.uid, pia.uid)  # only asks
    safety.block(pia.uid, bea.uid)
    params = {"follow": "pia,carl"}
    readers = {
        member.login: both_streams(member.cookie, FILTER, params) for member in (fay, rex, bea)
    }
    # Nor, as ever, any stream that passes no follow events.
    others = []
    for path, params in ((SAMPLE, {"percent": 100}), (FILTER, {"track": "marker,pia"})):
        others += both_streams(rex.cookie, path, params)
    others += both_streams(bea.cookie, FILTER, {"location": BOX})
    follow_user(pia.uid, carl)
    marker = post_status(carl, "marker", location=IN_THE_BOX)
    for next_event in readers["rex"] + readers["bea"] + others:
        assert next_event()["id"] == marker
    for next_event in readers["fay"]:
        event = next_event()
        assert (event["event"], event["source"]["login"]) == ("follow", "pia")
        assert event["source"]["private"] == "1"
        assert next_event()["id"] == marker


def test_home_json_carries_no_repost_of_a_blockers_status_nor_a_private_accounts_follow(
    both_streams, make_user
):
    bea, alice, pia = make_user("bea"), create_user("alice", "A"), create_user("pia", "P")
    carl = create_user("carl", "Carl")
    safety.set_private(pia, True)
    follow_user(bea.uid, carl)
    original = post_status(alice, "carl reposts this")
    streams = both_streams(bea.cookie, HOME, {})
    safety.block(alice, bea.uid)  # while it is open: bea follows neither
    reactions.repost(carl, original)
    follow_user(pia, carl)
    marker = post_status(carl, "marker")
    for next_event in streams:
        assert next_event()["id"] == marker


def live(ws_stream, member):
    return ws_stream("/live/", additional_headers={"Cookie": member.cookie})


def test_live_carries_nothing_of_a_blocker_nor_a_private_accounts_follow(ws_stream, make_user):
    bea, rex = make_user("bea"), make_user("rex")
    alice, pia, carl = (create_user(login, login) for login in ("alice", "pia", "carl"))
    safety.set_private(pia, True)
    follow_user(rex.uid, pia)  # only asks
    safety.block(alice, bea.uid)
    sockets = {bea.uid: live(ws_stream, bea), rex.uid: live(ws_stream, rex)}
    post_status(alice, "hello @bea")
    follow_user(pia, carl)
    for uid, socket in sockets.items():
        reactions.like(carl, post_status(uid, "like me"))
        event = json.loads(socket.recv(timeout=10))
        assert event["notification"]["text"] == "@carl liked your status", uid


def test_live_closes_a_suspended_users_socket(ws_stream, make_user):
    dora = make_user("dora")
    socket = live(ws_stream, dora)
    set_suspended(dora.uid, True)
    last, code = last_words(socket)
    assert code in (4403, None)
    assert last in ({"disconnect": {"code": 4403, "reason": "This account is suspended."}}, None)
    with pytest.raises(ConnectionClosed):
        socket.recv(timeout=1)
    # And it can't open another (its session ended with the suspension, too).
    again = live(ws_stream, dora)
    refused = json.loads(again.recv(timeout=10))["error"]
    assert refused in ("Log in first.", "This account is suspended.")


def test_streams_opened_with_a_stream_key_obey_the_same_rule(http_stream, make_user):
    alice, bea = make_user("alice"), make_user("bea")
    carl = create_user("carl", "Carl")
    safety.block(alice.uid, bea.uid)
    key = create_stream_key(bea.uid)
    response = http_stream("GET", SAMPLE, {"identifier": key, "percent": 100})
    post_status(alice.uid, "from alice")
    marker = post_status(carl, "marker")
    assert response.next_event()["id"] == marker
