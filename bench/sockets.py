"""The site's own WebSockets in the streaming part: ws://HOST/live/ (a page's live
updates, by session) and ws://HOST/api/v1/streaming?stream=user (Mastodon's, by token),
and the same Mastodon home stream as server-sent events (/api/v1/streaming/user),
beside that WebSocket's figure of the same run.
Neither is request/response, and a socket's cost is mostly in its opening: each row
is `plan.socket_connects` connections one after another, each timed from its TCP
connect to the first event it receives, published through the services once the
handshake is done (both accept only once subscribed, so none is missed). The baseline,
the same run: as many fresh connections to Redis, each SUBSCRIBEd to the channel the
event goes on, timed from connect to the same event."""

import asyncio
import contextlib
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import httpx
import websockets
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

from accounts.services import get_user
from api.oauth import OOB, issue_token, register_app
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import connect_async
from timeline.direct import services as direct
from timeline.graph import services as graph
from timeline.keys import PRIVATE_CHANNEL
from timeline.posting import services as posting

from . import seed
from .context import Context
from .measure import NO_LATENCY, Row, latency_of
from .servers import daphne
from .web_accounts import signed_in

# Seconds a connection may take to its first event before it counts as failed.
FIRST_EVENT_TIMEOUT = 5.0


async def first_event(open_socket: Callable, publish: Callable[[str], object]) -> tuple:
    """Opens a socket, publishes an event with a new text through `publish` once it is
    open, and reads until that text arrives: (seconds from opening to the event,
    seconds to open)."""
    text = f"event {time.perf_counter_ns()}"
    started = time.perf_counter()
    async with open_socket() as receive:
        opened = time.perf_counter()
        await asyncio.to_thread(publish, text)
        while text not in await asyncio.wait_for(receive(), FIRST_EVENT_TIMEOUT):
            pass
        received = time.perf_counter()
    return received - started, opened - started


def websocket(url: str, headers: dict[str, str]) -> Callable:
    """Opens a WebSocket to `url` with `headers`; yields its receive."""

    @contextlib.asynccontextmanager
    async def opened():
        async with websockets.connect(url, additional_headers=headers) as socket:
            yield socket.recv

    return opened


def event_stream(url: str, headers: dict[str, str]) -> Callable:
    """Opens a server-sent events response at `url` with `headers`; yields a receive
    that gives all the text read so far (an event may come in two reads)."""

    # One client (making one costs its TLS context, tens of ms) opening a new connection
    # for each stream, as the WebSocket's do: none is kept alive.
    clients: list[httpx.AsyncClient] = []

    @contextlib.asynccontextmanager
    async def opened():
        if not clients:
            limits = httpx.Limits(max_keepalive_connections=0)
            clients.append(httpx.AsyncClient(timeout=FIRST_EVENT_TIMEOUT, limits=limits))
        async with clients[0].stream("GET", url, headers=headers) as response:
            response.raise_for_status()
            parts = response.aiter_text()
            read = [await anext(parts)]  # Mastodon's first comment: the stream is open

            async def receive() -> str:
                read.append(await anext(parts))
                return "".join(read)

            yield receive

    return opened


def redis_subscriber(channel: str) -> Callable:
    """Opens a new Redis connection SUBSCRIBEd to `channel`; yields its receive."""

    @contextlib.asynccontextmanager
    async def opened():
        client = connect_async(settings.REDIS_URL)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(channel)

                async def receive() -> str:
                    while True:
                        message = await pubsub.get_message(timeout=None)
                        if message and message["type"] == "message":
                            return message["data"]

                yield receive
        finally:
            await client.aclose()

    return opened


async def timed(times: int, open_socket: Callable, publish: Callable) -> tuple[list, list, int]:
    """`first_event` `times` over, one after another: (to the event, to open, failures)."""
    await first_event(open_socket, publish)  # warm-up: the server's subscription, imports
    events, opens, failed = [], [], 0
    for _ in range(times):
        try:
            to_event, to_open = await first_event(open_socket, publish)
        except (OSError, TimeoutError, websockets.WebSocketException, httpx.HTTPError):
            failed += 1
            continue
        events.append(to_event)
        opens.append(to_open)
    return events, opens, failed


def listener() -> dict:
    """A signed-in user following an author they converse with, and a read token:
    the sockets' headers and what publishes an event on each."""
    call_command("migrate", verbosity=0, interactive=False)
    uid, cookie = signed_in("benchlive", "Live")
    author = seed.user("livewriter")
    graph.follow_user(uid, author)
    conversation = direct.start_conversation(author, get_user(uid)["login"], "hello")
    app, _ = register_app("bench live", OOB, "read")
    token = issue_token(app, User.objects.get(username="benchlive"), "read")
    return {
        "cookie": cookie,
        "authorization": f"Bearer {token}",
        "message": lambda text: direct.send_message(author, conversation, text),
        "post": lambda text: posting.post_status(author, text),
    }


def run(ctx: Context) -> list[Row]:
    times = ctx.plan.socket_connects
    user = listener()
    sockets = {
        "/live/": (
            {"Cookie": user["cookie"]},
            user["message"],
            PRIVATE_CHANNEL,
            "a direct message",
        ),
        "/api/v1/streaming?stream=user": (
            {"Authorization": user["authorization"]},
            user["post"],
            STATUS_CHANNEL,
            "a followed author's status",
        ),
    }
    rows = []
    with daphne(ctx.var_dir) as (base, _):
        host = urlsplit(base).netloc
        ws_home = None
        for path, (headers, publish, channel, event) in sockets.items():
            ours = asyncio.run(timed(times, websocket(f"ws://{host}{path}", headers), publish))
            raw = asyncio.run(timed(times, redis_subscriber(channel), publish))
            to_event, to_open, failed = ours
            rows.append(
                Row(
                    "streaming",
                    f"ws {path}: connect to first event ({event}), {times} connections in turn",
                    latency_of(to_event) if to_event else NO_LATENCY,
                    "a new Redis connection: SUBSCRIBE to the event",
                    latency_of(raw[0]) if raw[0] else NO_LATENCY,
                    notes={
                        "handshake_p50_ms": latency_of(to_open).p50_ms if to_open else None,
                        "handshake_p99_ms": latency_of(to_open).p99_ms if to_open else None,
                        "failed": failed,
                        "raw_failed": raw[2],
                    },
                )
            )
            ws_home = to_event
        rows.append(home_over_sse(times, base, user, ws_home))
    return rows


def home_over_sse(times: int, base: str, user: dict, ws_home: list | None) -> Row:
    """Mastodon's home stream as server-sent events, connect to first event, beside the
    same stream over the WebSocket in this run."""
    headers = {"Authorization": user["authorization"]}
    opener = event_stream(f"{base}/api/v1/streaming/user", headers)
    to_event, to_open, failed = asyncio.run(timed(times, opener, user["post"]))
    return Row(
        "streaming",
        f"sse /api/v1/streaming/user: connect to first event (a followed author's status),"
        f" {times} connections in turn",
        latency_of(to_event) if to_event else NO_LATENCY,
        "the same stream over the WebSocket (?stream=user), this run",
        latency_of(ws_home) if ws_home else NO_LATENCY,
        notes={
            "open_p50_ms": latency_of(to_open).p50_ms if to_open else None,
            "open_p99_ms": latency_of(to_open).p99_ms if to_open else None,
            "failed": failed,
        },
    )
