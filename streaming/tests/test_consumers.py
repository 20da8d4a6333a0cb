"""The consumers in this process (channels' communicators), where its tasks can be counted
and a client's pace controlled."""

import asyncio
import json

from autobahn.exception import Disconnected
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import override_settings

from socialsite.asgi import application
from streaming.backlog import CONNECTION
from streaming.hub import get_hub
from streaming.services import stream_stats
from timeline.posting.services import post_status

from .clients import subscribers


def http_scope(path: str, query: str, method: str = "GET") -> dict:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def open_http_stream(query: str) -> ApplicationCommunicator:
    communicator = ApplicationCommunicator(application, http_scope("/statuses/sample.json", query))
    await communicator.send_input({"type": "http.request", "body": b""})
    assert (await communicator.receive_output(5))["status"] == 200
    assert (await communicator.receive_output(5))["body"] == b""
    return communicator


async def test_a_closed_http_stream_leaves_no_task_no_subscription_and_no_client(
    alice_key, redis_conn
):
    tasks_before = len(asyncio.all_tasks())
    communicators = [await open_http_stream(f"identifier={alice_key}") for _ in range(2)]
    assert subscribers(redis_conn) == 1
    assert len(asyncio.all_tasks()) > tasks_before
    for communicator in communicators:
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait()
    assert len(asyncio.all_tasks()) == tasks_before
    assert subscribers(redis_conn) == 0
    assert stream_stats()["clients"] == 0
    assert not get_hub().listeners


async def test_a_closed_socket_leaves_no_task_no_subscription_and_no_client(alice_key, redis_conn):
    tasks_before = len(asyncio.all_tasks())
    communicator = WebsocketCommunicator(
        application, f"/statuses/sample.json?identifier={alice_key}"
    )
    connected, _ = await communicator.connect()
    assert connected
    assert subscribers(redis_conn) == 1
    await communicator.disconnect()
    assert len(asyncio.all_tasks()) == tasks_before
    assert subscribers(redis_conn) == 0
    assert stream_stats()["clients"] == 0


async def killed(communicator: ApplicationCommunicator) -> None:
    """Cancels the consumer as daphne does one that is still running
    application_close_timeout after its client left (a handshake it timed out, a busy
    server), and waits for it to end."""
    communicator.future.cancel()
    await asyncio.wait({communicator.future})


async def test_a_killed_http_consumer_takes_its_stream_with_it(alice_key, redis_conn):
    tasks_before = len(asyncio.all_tasks())
    communicator = await open_http_stream(f"identifier={alice_key}")
    await killed(communicator)
    assert not get_hub().listeners
    assert len(asyncio.all_tasks()) == tasks_before
    assert subscribers(redis_conn) == 0
    assert stream_stats()["clients"] == 0


async def test_a_killed_socket_consumer_takes_its_stream_with_it(alice_key, redis_conn):
    tasks_before = len(asyncio.all_tasks())
    communicator = WebsocketCommunicator(
        application, f"/statuses/sample.json?identifier={alice_key}"
    )
    connected, _ = await communicator.connect()
    assert connected
    await killed(communicator)
    assert not get_hub().listeners
    assert len(asyncio.all_tasks()) == tasks_before
    assert subscribers(redis_conn) == 0
    assert stream_stats()["clients"] == 0


async def test_a_silent_http_stream_sends_keepalive_newlines(alice_key):
    with override_settings(STREAM_KEEPALIVE_SECONDS=0.05):
        communicator = await open_http_stream(f"identifier={alice_key}")
        for _ in range(2):
            keepalive = await communicator.receive_output(5)
            assert (keepalive["body"], keepalive["more_body"]) == (b"\r\n", True)
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait()


async def test_a_client_too_slow_for_its_stream_is_dropped_while_another_gets_everything(
    alice_uid, alice_key
):
    """The first line's send never completes until released, as if the client's
    connection were stuck; the stream's queue fills and the hub drops it."""
    sent, released = [], asyncio.Event()

    async def stuck_send(message):
        sent.append(message)
        if message.get("body"):
            await released.wait()

    inputs = asyncio.Queue()
    await inputs.put({"type": "http.request", "body": b""})
    scope = http_scope("/statuses/sample.json", f"identifier={alice_key}&percent=100")
    with override_settings(STREAM_QUEUE_SIZE=2):
        app = asyncio.create_task(application(scope, inputs.get, stuck_send))
        while len(sent) < 2:  # the headers and the empty first part
            await asyncio.sleep(0.01)
        other = await get_hub().join(lambda event: True)
        for n in range(5):
            post_status(alice_uid, f"status {n}")
            async with asyncio.timeout(5):
                assert json.loads(await other.lines.get())["message"] == f"status {n}"
        released.set()
        while sent[-1].get("more_body", True):
            await asyncio.sleep(0.01)
        await get_hub().leave(other)
    first, last = json.loads(sent[2]["body"]), json.loads(sent[-1]["body"])
    assert first["message"] == "status 0"
    assert last["disconnect"]["code"] == 4008
    assert "fell more than 2 events behind" in last["disconnect"]["reason"]
    await inputs.put({"type": "http.disconnect"})
    await app
    assert stream_stats()["clients"] == 0


async def test_a_socket_whose_client_is_closing_ends_without_a_failure(
    alice_uid, alice_key, caplog
):
    """From the client's close frame to the disconnect daphne reports, daphne's
    WebSocket refuses to send (autobahn's Disconnected): not a failure of the stream."""
    attempts, accepted = [], []

    async def closing_send(message):
        if message["type"] == "websocket.accept":
            accepted.append(message)
        if message["type"] == "websocket.send":
            attempts.append(message)
            raise Disconnected("Attempt to send on a closed protocol")

    inputs = asyncio.Queue()
    await inputs.put({"type": "websocket.connect"})
    scope = {
        **http_scope("/statuses/sample.json", f"identifier={alice_key}&percent=100"),
        "type": "websocket",
        "subprotocols": [],
    }
    app = asyncio.create_task(application(scope, inputs.get, closing_send))
    async with asyncio.timeout(5):
        # Accepted once the hub's subscription is live (a listener is added before).
        while not accepted:
            await asyncio.sleep(0.01)
        post_status(alice_uid, "nobody will read this")
        while not attempts:
            await asyncio.sleep(0.01)
    await inputs.put({"type": "websocket.disconnect", "code": 1000})
    await app
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    assert stream_stats()["clients"] == 0


class UnreadConnection:
    """A daphne connection whose client reads nothing: whatever was sent stays unsent."""

    def __init__(self) -> None:
        self.sent = 0
        self.written: list[bytes] = []  # what the hub wrote straight to it
        self.aborted = False

    def unsent_bytes(self) -> int:
        return self.sent

    def chunk_writer(self):
        def write(line) -> bool:
            if self.sent > django_settings.STREAM_SEND_BUFFER_BYTES:
                return False
            self.written.append(line.body())
            self.sent += len(line.body())
            return True

        return write

    def abort(self) -> None:
        self.aborted = True


async def test_a_chunked_client_that_reads_nothing_is_dropped_then_hung_up_on(alice_uid, alice_key):
    """Sends never wait (daphne's don't): the stream waits on its connection's unsent
    bytes, its queue fills, and the connection is cut after the grace."""
    connection, sent = UnreadConnection(), []

    async def send(message):
        sent.append(message)
        connection.sent += len(message.get("body", b""))

    inputs = asyncio.Queue()
    await inputs.put({"type": "http.request", "body": b""})
    scope = {
        **http_scope("/statuses/sample.json", f"identifier={alice_key}&percent=100"),
        CONNECTION: connection,
    }
    settings = {"STREAM_QUEUE_SIZE": 2, "STREAM_SEND_BUFFER_BYTES": 0}
    with override_settings(**settings, STREAM_DROPPED_GRACE_SECONDS=0.05):
        app = asyncio.create_task(application(scope, inputs.get, send))
        async with asyncio.timeout(5):
            # The headers go once the hub's subscription is live (a listener is added before).
            while not sent:
                await asyncio.sleep(0.01)
            post_status(alice_uid, "status 0")
            while not connection.sent:
                await asyncio.sleep(0.01)
            for n in range(1, 5):
                post_status(alice_uid, f"status {n}")
                await asyncio.sleep(0.05)  # time enough to relay it, if it could
            while not connection.aborted:
                await asyncio.sleep(0.01)
    bodies = connection.written + [message["body"] for message in sent if message.get("body")]
    lines = [json.loads(body) for body in bodies]
    assert [line.get("message") for line in lines[:-1]] == ["status 0"]
    assert lines[-1]["disconnect"]["code"] == 4008
    await inputs.put({"type": "http.disconnect"})
    await app
    assert stream_stats()["clients"] == 0
