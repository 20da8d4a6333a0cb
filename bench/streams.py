"""6. Streaming: stream clients (four WebSocket to one chunked-HTTP) on one daphne process
or several (on one port, as WEB_PROCESSES serves), while statuses are posted at a steady
rate: publish-to-receive latency, events lost and received twice, and daphne's memory
per client. Each run of the plan's `stream_runs` is (clients, posts a second, daphne
processes); the clients live in `stream_client_processes` processes of their own, so
that the bench's Python keeps up (one process held all of them before: its own raw
subscriber's p99 reached 326 ms at 7,500 clients).

Most clients take a 1% sample, a tenth track one word (in a tenth of the statuses):
each status reaches ~1% of the clients, found by the hub's index of their filters
(streaming.index), and each client receives a few statuses a second. The clients read
their streams without a library (bench.stream_clients), so that their Python costs
the shared cores less than daphne's. What each client should get comes from the site's
own filters (expected_statuses).

Then the site's own sockets, /live/ and /api/v1/streaming: connect to first event
(bench.sockets)."""

import asyncio
import gc
import json
import multiprocessing
import resource
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings

from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import get_async_pubsub
from streaming.filters import create_stream_filter
from streaming.services import create_stream_key
from timeline.posting import services as posting
from timeline.statuses import selectors as status_selectors

from . import seed, sockets
from .context import Context
from .measure import NO_LATENCY, Row, Size, latency_of
from .servers import cpu_seconds, daphnes, rss_bytes
from .stream_clients import stream_client

MAX_P99_MS = 150
TRACK_WORDS = 100
CONNECT_AT_ONCE = 50
GRACE_SECONDS = 3.0


@dataclass
class Client:
    identifier: str
    stream: str  # "sample" or "filter"
    params: dict
    websocket: bool = True  # else chunked HTTP
    received: dict[int, float] = field(default_factory=dict)  # status id -> latency (s)
    duplicates: int = 0  # statuses received again
    ended: str = ""

    def receive(self, line: bytes, at: float) -> None:
        if not line.strip():
            return  # a keep-alive
        event = json.loads(line)
        if "disconnect" in event or "error" in event:
            self.ended = line.decode()
        elif "id" in event and not event.get("deleted"):
            if event["id"] in self.received:
                self.duplicates += 1
            else:
                self.received[event["id"]] = at - event["posted"]


def make_clients(count: int) -> list[Client]:
    """`count` clients on stream keys of their own (a key may hold only a few streams),
    one in five chunked HTTP, the rest WebSockets."""
    per_user = settings.STREAM_KEYS_PER_USER * settings.STREAM_CONNECTIONS_PER_KEY
    clients = []
    owner = None
    for i in range(count):
        if i % per_user == 0:
            owner = seed.user("streamer")
        if i % settings.STREAM_CONNECTIONS_PER_KEY == 0:
            key = create_stream_key(owner, f"bench {i}")
        websocket = i % 5 != 4
        if i % 10 == 9:
            params = {"track": f"word{i % TRACK_WORDS}"}
            clients.append(Client(key, "filter", params, websocket=websocket))
        else:
            clients.append(Client(key, "sample", {"percent": "1"}, websocket=websocket))
    return clients


def publish(rate: int, seconds: float) -> list[dict]:
    """Posts `rate` statuses a second for `seconds` from a few authors; returns them."""
    authors = [seed.user("talker") for _ in range(5)]
    posted = []
    start = time.perf_counter()
    for n in range(int(rate * seconds)):
        delay = start + n / rate - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        uid = authors[n % len(authors)]
        message = f"status {n} about word{n % TRACK_WORDS} and more"
        posted.append(status_selectors.get_status(posting.post_status(uid, message)))
    return posted


async def connect_all(clients: list[Client], base: str) -> list[asyncio.Task]:
    """Starts every client, a few at a time, each once its stream is open (or refused);
    returns their tasks in the clients' order."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def start(client: Client) -> asyncio.Task:
        async with gate:
            ready = asyncio.Event()
            task = asyncio.create_task(stream_client(client, base, ready))
            waiting = asyncio.create_task(ready.wait())
            await asyncio.wait([waiting, task], return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            return task

    return list(await asyncio.gather(*(start(c) for c in clients)))


def client_process(clients: list[Client], base: str, pipe) -> None:
    """A process of the bench's clients: connects them, says so on `pipe` (how many
    failed), holds them until told to stop, then sends back what each received."""

    async def hold() -> None:
        tasks = await connect_all(clients, base)
        # Out of the collector's sight from here (see measured_window).
        gc.freeze()
        pipe.send(sum(1 for task in tasks if task.done()))
        await asyncio.to_thread(pipe.recv)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(hold())
    pipe.send([(c.received, c.duplicates, c.ended) for c in clients])


async def raw_subscriber(latencies: list[float], ready: asyncio.Event) -> None:
    """The baseline: one plain redis-py subscriber to the channel the site publishes on."""
    async with await get_async_pubsub() as pubsub:
        await pubsub.subscribe(STATUS_CHANNEL)
        ready.set()
        async for message in pubsub.listen():
            if message["type"] == "message":
                event = json.loads(message["data"])
                if "posted" in event and not event.get("deleted"):
                    latencies.append(time.time() - event["posted"])


async def publish_beside_a_raw_subscriber(rate: int, seconds: float) -> tuple[list, list]:
    """Posts at `rate` for `seconds` (see publish) while a raw subscriber listens: (the
    statuses posted, the raw subscriber's latencies)."""
    raw_latencies: list[float] = []
    subscribed = asyncio.Event()
    task = asyncio.create_task(raw_subscriber(raw_latencies, subscribed))
    await subscribed.wait()
    posted = await asyncio.to_thread(publish, rate, seconds)
    await asyncio.sleep(GRACE_SECONDS)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    return posted, raw_latencies


def expected_statuses(clients: list[Client], posted: list[dict]) -> list[list[int]]:
    """The ids each client's filter (the site's own) passes of `posted`, in a time that
    grows with what is delivered rather than with clients x statuses (minutes at 10,000
    clients and 1,000/s): a track filter's answers depend only on its parameters, so
    each distinct one looks at every status once; a sample filter's only on the
    status's id % 100 (its documented rule), so it is asked about one status of each
    residue, and passes every status of the residues it takes."""
    by_residue: dict[int, list[dict]] = {}
    for status in posted:
        by_residue.setdefault(status["id"] % 100, []).append(status)
    tracked: dict[tuple, list[int]] = {}
    wanted = []
    for client in clients:
        passes = create_stream_filter(client.identifier, client.stream, client.params)
        if client.stream == "sample":
            taken = [same for same in by_residue.values() if passes(same[0])]
            wanted.append([status["id"] for same in taken for status in same])
            continue
        key = (client.stream, tuple(sorted(client.params.items())))
        if key not in tracked:
            tracked[key] = [status["id"] for status in posted if passes(status)]
        wanted.append(tracked[key])
    return wanted


@contextmanager
def measured_window():
    """The bench's own heap out of its collector's sight while statuses are posted: a
    full collection walks every object (10,000 clients' worth, Django's), 100-200 ms on
    this machine, and a pause between a status's `posted` time and its publication, or in
    a client process before it stamps a receipt, would count as the site's latency. The
    client processes do the same once connected. daphne's own collector runs as always."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def session(plan, base: str, pids: list[int], count: int, rate: int) -> dict:
    """`count` clients in the plan's client processes on the daphne processes `pids`
    serving `base`, while `rate` statuses a second are posted."""
    clients = make_clients(count)
    processes = max(1, min(plan.stream_client_processes, count))
    parts = [clients[i::processes] for i in range(processes)]
    rss_before = sum(rss_bytes(pid) for pid in pids)
    started = time.perf_counter()
    # Forked before this process runs an event loop: each child runs its own.
    fork = multiprocessing.get_context("fork")
    pipes, children = [], []
    for part in parts:
        mine, theirs = fork.Pipe()
        child = fork.Process(target=client_process, args=(part, base, theirs), daemon=True)
        child.start()
        pipes.append(mine)
        children.append(child)
    try:
        failed = sum(pipe.recv() for pipe in pipes)
        connect_seconds = time.perf_counter() - started
        rss_after = sum(rss_bytes(pid) for pid in pids)
        cpu_before = [cpu_seconds(pid) for pid in pids], [cpu_seconds(c.pid) for c in children]
        with measured_window():
            posted, raw_latencies = asyncio.run(
                publish_beside_a_raw_subscriber(rate, plan.stream_seconds)
            )
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - sum(cpu_before[0])
        client_cpu = sum(cpu_seconds(c.pid) for c in children) - sum(cpu_before[1])
        for pipe in pipes:
            pipe.send("stop")
        for part, pipe in zip(parts, pipes, strict=True):
            for client, (received, duplicates, ended) in zip(part, pipe.recv(), strict=True):
                client.received, client.duplicates, client.ended = received, duplicates, ended
    finally:
        for child in children:
            child.join(timeout=30)
            if child.is_alive():
                child.kill()

    latencies, lost, expected = [], 0, 0
    for client, wanted in zip(clients, expected_statuses(clients, posted), strict=True):
        expected += len(wanted)
        lost += sum(1 for sid in wanted if sid not in client.received)
        latencies += client.received.values()
    delivered = sum(len(client.received) + client.duplicates for client in clients)
    return {
        "clients": len(clients),
        "client_processes": processes,
        "failed": failed,
        "ended": dict(Counter(c.ended[:80] for c in clients if c.ended)),
        "daphne_cpu_s": server_cpu,
        "delivered": delivered,
        # What a delivery cost the server (with the statuses' own share), and the clients.
        "daphne_cpu_us_per_delivery": 1e6 * server_cpu / max(delivered, 1),
        "bench_cpu_us_per_delivery": 1e6 * client_cpu / max(delivered, 1),
        "bench_cpu_s": client_cpu,
        "connect_seconds": connect_seconds,
        "posts": len(posted),
        "expected": expected,
        "lost": lost,
        "duplicates": sum(client.duplicates for client in clients),
        "latency": latency_of(latencies) if latencies else NO_LATENCY,
        "raw_latency": latency_of(raw_latencies) if raw_latencies else NO_LATENCY,
        "rss_per_client": (rss_after - rss_before) / len(clients),
    }


def raise_fd_limit(wanted: int) -> int:
    """The soft limit on open files, raised toward `wanted` as far as the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def run(ctx: Context) -> list[Row]:
    plan = ctx.plan
    largest = max(clients for clients, _, _ in plan.stream_runs)
    # Each client holds a socket here and one in daphne (which inherits the limit).
    fd_limit = raise_fd_limit(4 * largest + 1024)
    rows = []
    for clients, rate, servers in plan.stream_runs:
        with daphnes(ctx.var_dir, servers) as (base, processes):
            result = session(plan, base, [p.pid for p in processes], clients, rate)
        rows += _rows(result, rate, servers, plan.stream_seconds, fd_limit)
    return rows + sockets.run(ctx)


def _rows(result: dict, rate: int, servers: int, seconds: float, fd_limit: int) -> list[Row]:
    daphne_processes = f"{servers} daphne {'process' if servers == 1 else 'processes'}"
    case = f"{result['clients']:,} clients, {rate:,}/s for {seconds:g} s, {daphne_processes}"
    latency = result["latency"]
    notes = {k: v for k, v in result.items() if "latency" not in k} | {"fd_soft_limit": fd_limit}
    return [
        Row(
            "streaming",
            f"{case}: publish to receive",
            latency,
            "one raw Redis subscriber",
            result["raw_latency"],
            target=f"p99 <= {MAX_P99_MS} ms",
            met=latency.p99_ms <= MAX_P99_MS,
            notes=notes,
        ),
        Row(
            "streaming",
            f"{case}: events lost of {result['expected']:,}",
            Size(result["lost"], "events"),
            target="0",
            met=result["lost"] == 0 and not result["failed"],
        ),
        Row(
            "streaming",
            f"{case}: events received twice",
            Size(result["duplicates"], "events"),
            target="0",
            met=result["duplicates"] == 0,
        ),
        Row(
            "streaming",
            f"{case}: daphne memory per client",
            Size(result["rss_per_client"], "B"),
            notes={"connect_seconds": result["connect_seconds"]},
        ),
    ]
