"""The server-sent events consumer in this process (channels' communicators), where its
heartbeats can be hurried, its tasks and hubs' listeners counted, and its client's pace
controlled."""

import asyncio
import json

import pytest
from channels.testing import ApplicationCommunicator
from django.test import override_settings

from socialsite.asgi import application
from socialsite.redis import get_redis
from streaming.hub import get_hub, get_personal_hub
from streaming.services import stream_stats
from timeline.keys import PRIVATE_CHANNEL


@pytest.fixture
def token(transactional_db, alice, token_for) -> bytes:
    return token_for(alice)["HTTP_AUTHORIZATION"].encode()


def sse_scope(path: str, token: bytes, query: str = "") -> dict:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver"), (b"authorization", token)],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def open_sse(path: str, token: bytes) -> ApplicationCommunicator:
    communicator = ApplicationCommunicator(application, sse_scope(path, token))
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(5)
    assert start["status"] == 200
    assert (await communicator.receive_output(5))["body"] == b":)\n\n"
    return communicator


async def test_a_silent_event_stream_sends_heartbeat_comments(token):
    with override_settings(STREAM_KEEPALIVE_SECONDS=0.05):
        communicator = await open_sse("/api/v1/streaming/public", token)
        for _ in range(2):
            beat = await communicator.receive_output(5)
            assert (beat["body"], beat["more_body"]) == (b":thump\n\n", True)
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait()


async def test_a_closed_event_stream_leaves_no_task_listener_or_place(token):
    tasks_before = len(asyncio.all_tasks())
    user = await open_sse("/api/v1/streaming/user", token)
    notified = await open_sse("/api/v1/streaming/user/notification", token)
    assert get_hub().listeners and len(get_personal_hub().listeners) == 2
    assert stream_stats()["clients"] == 1
    for communicator in (user, notified):
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait()
    assert len(asyncio.all_tasks()) == tasks_before
    assert not get_hub().listeners and not get_personal_hub().listeners
    assert stream_stats()["clients"] == 0


async def test_a_killed_event_stream_takes_its_streams_with_it(token):
    tasks_before = len(asyncio.all_tasks())
    communicator = await open_sse("/api/v1/streaming/user", token)
    communicator.future.cancel()
    await asyncio.wait({communicator.future})
    assert not get_hub().listeners and not get_personal_hub().listeners
    assert len(asyncio.all_tasks()) == tasks_before
    assert stream_stats()["clients"] == 0


async def test_more_live_connections_than_allowed_get_429_with_retry_after(token):
    with override_settings(LIVE_SOCKETS_PER_USER=1):
        first = await open_sse("/api/v1/streaming/user/notification", token)
        second = ApplicationCommunicator(application, sse_scope("/api/v1/streaming/direct", token))
        await second.send_input({"type": "http.request", "body": b""})
        refused = await second.receive_output(5)
        assert refused["status"] == 429
        assert dict(refused["headers"])[b"Retry-After"] == b"10"
        assert "At most 1" in json.loads((await second.receive_output(5))["body"])["error"]
        await first.send_input({"type": "http.disconnect"})
        await first.wait()


async def test_a_client_too_slow_for_its_own_events_is_dropped(alice, token):
    """The first event's send never completes until released, as if the client's
    connection were stuck; the private events' queue fills and the hub drops it."""
    sent, released = [], asyncio.Event()

    async def stuck_send(message):
        sent.append(message)
        if message.get("body", b"").startswith(b"event:"):
            await released.wait()

    inputs: asyncio.Queue = asyncio.Queue()
    await inputs.put({"type": "http.request", "body": b""})
    scope = sse_scope("/api/v1/streaming/user", token)
    with override_settings(STREAM_QUEUE_SIZE=2):
        app = asyncio.create_task(application(scope, inputs.get, stuck_send))
        async with asyncio.timeout(5):
            while len(sent) < 2:  # the headers and Mastodon's first comment
                await asyncio.sleep(0.01)
        for _ in range(6):
            event = {"to": [alice.uid], "type": "filters_changed"}
            get_redis().publish(PRIVATE_CHANNEL, json.dumps(event))
            await asyncio.sleep(0.05)
        released.set()
        async with asyncio.timeout(5):
            while sent[-1].get("more_body", True):
                await asyncio.sleep(0.01)
    assert sent[2]["body"] == b"event: filters_changed\ndata: undefined\n\n"
    last = json.loads(sent[-1]["body"].decode().strip()[1:])
    assert last["status"] == 4008 and "fell more than 2 events behind" in last["error"]
    await inputs.put({"type": "http.disconnect"})
    await app
    assert not get_personal_hub().listeners and not get_hub().listeners
    assert stream_stats()["clients"] == 0


async def test_a_refused_home_stream_leaves_no_listener_for_its_own_events(token):
    """The user stream joins the private events' hub, then its home stream is refused
    (the address has no place left): the listener goes with the refusal."""
    with override_settings(STREAM_CONNECTIONS_PER_IP=0):
        communicator = ApplicationCommunicator(
            application, sse_scope("/api/v1/streaming/user", token)
        )
        await communicator.send_input({"type": "http.request", "body": b""})
        refused = await communicator.receive_output(5)
        assert refused["status"] == 429 and b"Retry-After" in dict(refused["headers"])
        await communicator.receive_output(5)
        await communicator.wait()
    assert not get_personal_hub().listeners and not get_hub().listeners
    assert stream_stats()["clients"] == 0
