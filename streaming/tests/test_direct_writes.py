"""Lines the hub writes straight to daphne's connections (backlog.Line, the writers),
end to end: a real daphne process, real Redis, real clients."""

import json

import pytest

from timeline.posting.services import delete_status, post_status

pytestmark = pytest.mark.django_db(transaction=True)

PARAMS = {"percent": 100}


def message(n: int) -> str:
    """Lines of different lengths, some past a WebSocket frame's one-byte length (125)."""
    return f"status {n} " + "x" * (n % 7) * 40


def post_and_delete_the_first(uid: int) -> tuple[list, list[dict]]:
    posted = [post_status(uid, message(n)) for n in range(150)]
    delete_status(uid, posted[0])
    return posted, [{"id": posted[0], "deleted": True}]


def in_order(lines: list[dict], posted: list) -> bool:
    """Whether `lines` are the statuses `posted`, each once, in order."""
    return [(line["id"], line["message"]) for line in lines] == [
        (status_id, message(n)) for n, status_id in enumerate(posted)
    ]


def test_a_socket_gets_every_status_once_and_in_order(ws_stream, alice_uid, alice_key):
    socket = ws_stream("/statuses/sample.json", {"identifier": alice_key, **PARAMS})
    posted, last = post_and_delete_the_first(alice_uid)
    *lines, deletion = [json.loads(socket.recv(timeout=10)) for _ in range(151)]
    assert in_order(lines, posted)
    assert [deletion] == last


def test_a_chunked_response_gets_every_status_once_and_in_order(http_stream, alice_uid, alice_key):
    response = http_stream("GET", "/statuses/sample.json", {"identifier": alice_key, **PARAMS})
    assert response.status == 200
    posted, last = post_and_delete_the_first(alice_uid)
    # Each chunk is exactly one line (next_event checks).
    *lines, deletion = [response.next_event() for _ in range(151)]
    assert in_order(lines, posted)
    assert [deletion] == last
