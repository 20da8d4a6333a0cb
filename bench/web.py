"""5. HTTP: the home and profile pages (and the notifications, inbox, conversation and
search pages) under 100 concurrent keep-alive connections through daphne, beside a bare
Django view on the same server in the same run."""

import asyncio
import itertools
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from django.core.management import call_command
from django.test import Client

from accounts.services import create_user, get_user, sign_up, uid_for_login
from api.oauth import OOB, issue_token, register_app
from timeline.direct import services as direct
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions

from .context import Context
from .measure import Latency, Rate, Row, latency_of
from .pages import author_with_statuses
from .servers import cpu_seconds, daphne

TARGET = 0.5
ROUNDS = 2
# Statuses a page of the client API's home timeline asks for (Mastodon's most).
API_STATUSES = 40


@dataclass
class Load:
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    server_cpu: float = 0.0  # daphne's CPU seconds while under this load

    def rate(self) -> Rate:
        return Rate(len(self.latencies) / self.seconds, "req")

    def latency(self) -> Latency:
        return latency_of(self.latencies)


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """An HTTP/1.1 response's status and headers (names lower-cased)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = (line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {name.lower(): value for name, value in headers}


async def read_response(reader: asyncio.StreamReader) -> int:
    """Reads one HTTP/1.1 response (Content-Length or chunked); returns its status."""
    status, headers = await read_head(reader)
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    return status


async def hammer(
    base: str,
    path: str,
    cookie: str,
    connections: int,
    seconds: float,
    *,
    readers=None,
    authorization: str = "",
) -> Load:
    """`connections` keep-alive connections, each asking for `path` again as soon as
    answered, with the session `cookie` (and an `authorization` header, if any); with
    `readers` (a list of (cookie, paths)), connection i is reader i's (of as many as
    there are, in turn) and asks for each of its paths in turn."""
    url = urlsplit(base)
    readers = readers or [(cookie, [path])]
    extra = f"Authorization: {authorization}\r\n" if authorization else ""
    load = Load()

    def request(cookie: str, path: str) -> bytes:
        return (
            f"GET {path} HTTP/1.1\r\nHost: {url.netloc}\r\nCookie: {cookie}\r\n{extra}\r\n".encode()
        )

    async def client(deadline: float, number: int) -> None:
        cookie, paths = readers[number % len(readers)]
        requests = itertools.cycle([request(cookie, path) for path in paths])
        # Connections of one reader start at different places in its paths.
        for _ in range(number // len(readers) % len(paths)):
            next(requests)
        reader, writer = await asyncio.open_connection(url.hostname, url.port)
        try:
            while time.perf_counter() < deadline:
                start = time.perf_counter()
                writer.write(next(requests))
                if await read_response(reader) == 200:
                    load.latencies.append(time.perf_counter() - start)
                else:
                    load.errors += 1
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(client(start + seconds, n) for n in range(connections)))
    load.seconds = time.perf_counter() - start
    return load


# The reader's notifications (likes of their statuses and follows, by as many fans)
# and messages in one conversation: a page of each.
FANS = 40
MESSAGES = 60


def logged_in_reader(
    profile_statuses: int, login: str = "benchreader"
) -> tuple[str, str, int, str]:
    """A signed-up user following a busy author, with notifications and a conversation:
    (session cookie, the author's login, the conversation's id, a client API token's
    Authorization header)."""
    call_command("migrate", verbosity=0, interactive=False)
    user = sign_up(login, "a long bench password", "Bench Reader")
    reader = uid_for_login(user.username)
    author = author_with_statuses(profile_statuses)
    graph.follow_user(reader, author)
    mine = [posting.post_status(reader, f"mine {i}") for i in range(FANS // 2)]
    for i in range(FANS):
        fan = create_user(f"benchfan{i}", "Fan")
        reactions.like(fan, mine[i % len(mine)])
        graph.follow_user(fan, reader)
    conversation = direct.start_conversation(author, user.username, "hello")
    for i in range(MESSAGES):
        direct.send_message(reader if i % 2 else author, conversation, f"message {i}")
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    app, _ = register_app("bench", OOB, "read")
    authorization = f"Bearer {issue_token(app, user, 'read')}"
    return cookie, get_user(author)["login"], conversation, authorization


# Many readers over many distinct statuses: readers, authors, the statuses each author
# has, whom each reader follows, and the pages of their home each reader reads in turn.
MANY_READERS = 20
MANY_AUTHORS = 20
FOLLOWED_EACH = 5
PAGES_EACH = 10


def many_readers(statuses_each: int) -> list[tuple[str, list[str]]]:
    """MANY_READERS signed-in readers, each following FOLLOWED_EACH of MANY_AUTHORS
    authors (with `statuses_each` statuses each), reading pages 1 to PAGES_EACH of their
    home in turn: (cookie, paths) each, over thousands of distinct statuses."""
    pick = random.Random(7)
    authors = [author_with_statuses(statuses_each) for _ in range(MANY_AUTHORS)]
    readers = []
    for i in range(MANY_READERS):
        user = sign_up(f"benchmany{i}", "a long bench password", "Many Reader")
        uid = uid_for_login(user.username)
        for author in pick.sample(authors, FOLLOWED_EACH):
            graph.follow_user(uid, author)
        client = Client()
        client.force_login(user)
        paths = [f"/?page={page}" for page in range(1, PAGES_EACH + 1)]
        readers.append((f"sessionid={client.cookies['sessionid'].value}", paths))
    return readers


def pinning() -> tuple[set[int], set[int]] | None:
    """(daphne's core, the client's cores) where this machine can pin them, else None."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) < 2:
        return None
    return {cores[0]}, set(cores[1:])


def pin(pid: int, cores: set[int]) -> None:
    """Pins every thread of process `pid` to `cores` (as `taskset -a -p` does)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), cores)


def _serve(
    ctx: Context,
    paths: dict[str, str],
    cookie: str,
    *,
    pinned=None,
    readers=None,
    authorization: str = "",
    **settings,
) -> dict[str, Load]:
    """Each of `paths` under load in turn, ROUNDS times, on one daphne with `settings`;
    with `pinned` (see pinning), daphne on its core and this client on the others; paths
    named "many readers" are read by `readers` (see hammer); every request with the
    `authorization` header, if any."""
    plan = ctx.plan
    loads = {name: Load() for name in paths}
    mine = os.sched_getaffinity(0) if pinned else None
    with daphne(ctx.var_dir, **settings) as (base, process):
        if pinned:
            pin(process.pid, pinned[0])
            os.sched_setaffinity(0, pinned[1])
        try:
            for name, path in paths.items():  # warm-up: imports, templates, connections
                many = readers if name == "many readers" else None
                asyncio.run(
                    hammer(base, path, cookie, 2, 0.3, readers=many, authorization=authorization)
                )
            for _ in range(ROUNDS):
                for name, path in paths.items():
                    cpu_before = cpu_seconds(process.pid)
                    got = asyncio.run(
                        hammer(
                            base,
                            path,
                            cookie,
                            plan.http_connections,
                            plan.http_seconds / ROUNDS,
                            readers=readers if name == "many readers" else None,
                            authorization=authorization,
                        )
                    )
                    loads[name].server_cpu += cpu_seconds(process.pid) - cpu_before
                    loads[name].seconds += got.seconds
                    loads[name].latencies += got.latencies
                    loads[name].errors += got.errors
        finally:
            if mine:
                os.sched_setaffinity(0, mine)
    return loads


def run(ctx: Context) -> list[Row]:
    conns = ctx.plan.http_connections
    cookie, author_login, conversation, authorization = logged_in_reader(ctx.plan.profile_statuses)
    bare_path = "/bench/bare/"
    many = (
        f"home pages of {MANY_READERS} readers, {PAGES_EACH} pages each,"
        f" {MANY_AUTHORS * ctx.plan.profile_statuses // 2:,} statuses"
    )
    # name: (path, the row's case, whether it is held to the target).
    pages = {
        "home": ("/", "home page", True),
        "profile": (f"/u/{author_login}/", "profile page", True),
        "many readers": ("/", many, True),
        "api home": (
            f"/api/v1/timelines/home?limit={API_STATUSES}",
            f"GET /api/v1/timelines/home ({API_STATUSES} statuses)",
            True,
        ),
        "notifications": ("/notifications/", "notifications page", False),
        "inbox": ("/messages/", "inbox page", False),
        "conversation": (f"/messages/{conversation}/", "conversation page", False),
        "search": ("/search/?q=mine&type=statuses", "search page", False),
        "people search": ("/search/?q=benchfan&type=people", "people search page", False),
    }
    paths = {"bare view": bare_path} | {name: page[0] for name, page in pages.items()}
    readers = many_readers(ctx.plan.profile_statuses // 2)
    loads = _serve(ctx, paths, cookie, readers=readers, authorization=authorization)
    bare = loads["bare view"]
    rows = [Row("http", f"bare view, {conns} conns", bare.rate(), notes=_notes(bare))]
    for name, (_, case, held) in pages.items():
        rows.append(_compared(f"{case}, {conns} conns", loads[name], bare, held=held))
    # The same home page with no rendered card kept: what a page of cards never shown
    # before costs (the reader above sees the same 30 cards on every request).
    cold = _serve(ctx, {"bare view": bare_path, "home": "/"}, cookie, STATUS_CARDS_KEPT="0")
    rows.append(
        _compared(f"home page, {conns} conns, no card kept", cold["home"], cold["bare view"])
    )
    pinned = pinning()
    if pinned:
        # daphne alone on one core, the client on the others: what one core serves.
        alone = _serve(
            ctx, {"bare view": bare_path, "home": "/", "many readers": "/"}, cookie,
            pinned=pinned, readers=readers,
        )  # fmt: skip
        bare_alone = alone["bare view"]
        on_one_core = f"{conns} conns, daphne pinned to one core"
        rows.append(
            Row("http", f"bare view, {on_one_core}", bare_alone.rate(), notes=_notes(bare_alone))
        )
        for name in ("home", "many readers"):
            case = f"{pages[name][1]}, {on_one_core}"
            rows.append(_compared(case, alone[name], bare_alone, ", pinned", held=True))
    return rows


def _compared(case: str, load: Load, bare: Load, pinned: str = "", *, held=False) -> Row:
    """A page's row beside the bare view's; `held` to TARGET of it."""
    return Row(
        "http",
        case,
        load.rate(),
        f"bare Django view{pinned}",
        bare.rate(),
        target=f">= {TARGET:.0%} of bare" if held else "",
        met=load.rate().per_s >= TARGET * bare.rate().per_s and not load.errors if held else None,
        notes=_notes(load),
    )


def _notes(load: Load) -> dict:
    latency = load.latency()
    # CPU per request tells a page's own cost apart from waiting: daphne runs on one core.
    cpu_ms = 1000 * load.server_cpu / max(1, len(load.latencies))
    return {
        "p50_ms": latency.p50_ms,
        "p99_ms": latency.p99_ms,
        "errors": load.errors,
        "daphne_cpu_ms_per_request": cpu_ms,
    }
