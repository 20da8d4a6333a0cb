"""Clients that stop reading, end to end: a real daphne process, real Redis, real
sockets whose small receive buffer fills. Such a client is dropped (4008) once it is
STREAM_QUEUE_SIZE events behind, the server holding at most STREAM_SEND_BUFFER_BYTES
unsent for it meanwhile; a client that reads on the same server misses nothing."""

import json
import threading
import time
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from socialsite import events
from socialsite.redis import get_redis
from streaming.services import stream_stats

from .clients import small_buffered_socket, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLE = "/statuses/sample.json"
RECEIVE_BUFFER = 4096
MESSAGE = "x" * 500
BATCH = 200
# Enough to fill any socket buffers on the way and the queue several times over.
MOST_EVENTS = 20_000


class Reader(threading.Thread):
    """Reads a stream's events as fast as they come, keeping their ids."""

    def __init__(self, next_event) -> None:
        super().__init__(daemon=True)
        self.next_event = next_event
        self.ids: list[int] = []

    def run(self) -> None:
        try:
            while True:
                self.ids.append(self.next_event()["id"])
        except (OSError, ConnectionClosed):
            return  # the test is over: its streams are closed

    def wait_for(self, count: int) -> None:
        wait_until(lambda: len(self.ids) >= count, message=f"the reader has {count} events")


def publish_until_one_is_dropped(uid: int, reader: Reader) -> list[int]:
    """Publishes events in batches, each once `reader` has the one before (so it is never
    far behind), until the server has ended one of the two streams; returns their ids."""
    conn, ids = get_redis(), []
    while stream_stats()["clients"] == 2:
        assert len(ids) < MOST_EVENTS, "the client that stopped reading was never dropped"
        batch = range(len(ids) + 1, len(ids) + BATCH + 1)
        pipe = conn.pipeline(transaction=False)
        for status_id in batch:
            event = {"id": status_id, "uid": uid, "login": "alice", "message": MESSAGE}
            events.publish(pipe, json.dumps({**event, "posted": time.time()}))
        pipe.execute()
        ids += batch
        reader.wait_for(len(ids))
    return ids


def assert_dropped_behind(received: list[int], published: list[int], last: dict) -> None:
    """The dropped client got the events in order up to where it stopped, then the reason."""
    assert received == published[: len(received)]
    assert "disconnect" in last, f"{len(received)} of {len(published)} events, then {last}"
    assert last["disconnect"]["code"] == 4008
    assert f"more than {settings.STREAM_QUEUE_SIZE} events behind" in last["disconnect"]["reason"]
    assert len(published) - len(received) > settings.STREAM_QUEUE_SIZE


def test_a_chunked_client_that_stops_reading_is_dropped_and_a_reader_misses_nothing(
    http_stream, alice_uid, alice_key
):
    params = {"identifier": alice_key, "percent": 100}
    stalled = http_stream("GET", SAMPLE, params, receive_buffer=RECEIVE_BUFFER)
    reader = Reader(http_stream("GET", SAMPLE, params).next_event)
    reader.start()

    published = publish_until_one_is_dropped(alice_uid, reader)

    assert reader.ids == published
    lines = []
    while chunk := stalled.next_chunk():
        lines.append(json.loads(chunk))
    *events, last = lines
    assert_dropped_behind([event["id"] for event in events], published, last)


def test_a_socket_that_stops_reading_is_dropped_and_a_reader_misses_nothing(
    daphne_server, ws_stream, alice_uid, alice_key
):
    params = {"identifier": alice_key, "percent": 100}
    url = urlsplit(daphne_server)
    sock = small_buffered_socket(RECEIVE_BUFFER)
    sock.connect((url.hostname, url.port))
    # The client stops reading the socket once it holds 16 messages nobody asked for
    # (websockets' default): asked at last, it reads in bulk, not a message at a time.
    # It sends no pings: their pongs would wait behind all it doesn't read, and after 20 s
    # (a slow run) it would close the connection itself, as a keepalive timeout.
    stalled = ws_stream(SAMPLE, params, sock=sock, max_queue=16, ping_interval=None)
    fast = ws_stream(SAMPLE, params)
    dropped = Dropped(stalled)
    dropped.start()
    reader = Reader(lambda: json.loads(fast.recv(timeout=10)))
    reader.start()

    published = publish_until_one_is_dropped(alice_uid, reader)

    assert reader.ids == published
    dropped.join(timeout=60)
    assert not dropped.is_alive(), f"the dropped socket was still being read: {dropped.frames[-1:]}"
    *events, last = dropped.frames
    assert_dropped_behind([event["id"] for event in events], published, last)
    assert dropped.code == 4008


class Dropped(threading.Thread):
    """Reads a stalled socket all at once as soon as the server has dropped its stream:
    daphne resets a WebSocket whose client leaves its close unanswered for a second."""

    def __init__(self, socket) -> None:
        super().__init__(daemon=True)
        self.socket = socket
        self.frames: list[dict] = []
        self.code: int | None = None

    def run(self) -> None:
        wait_until(lambda: stream_stats()["clients"] < 2, timeout=120, message="a stream ended")
        try:
            while True:
                self.frames.append(json.loads(self.socket.recv(timeout=10)))
        except ConnectionClosed as closed:
            self.code = closed.rcvd and closed.rcvd.code
