"""5. HTTP: the home and profile pages (and every other page: notifications, messages,
search, follow requests, blocks, mutes, settings, the data export, lists, the admin's
moderation queue and dashboard) under 100 concurrent keep-alive connections through
daphne, beside a bare Django view on the same server in the same run."""

import asyncio
import itertools
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from timeline.graph.directory import PEOPLE_PER_PAGE
from timeline.web import USERS_PER_PAGE

from .context import Context
from .measure import Latency, Rate, Row, latency_of
from .pages import (
    GUARDED_BLOCKS,
    GUARDED_MUTES,
)
from .servers import cpu_seconds, daphne
from .web_accounts import (
    FOLLOW_REQUESTS,
    LISTS,
    MANY_AUTHORS,
    MANY_READERS,
    MEMBERS,
    PAGES_EACH,
    REPORTS,
    exporter,
    guarded_account,
    lister,
    logged_in_reader,
    many_readers,
    marking_account,
    operator,
    private_account,
    signed_in,
)

TARGET = 0.5
ROUNDS = 2
# Statuses a page of the client API's home timeline asks for (Mastodon's most).
API_STATUSES = 40
# Accounts a page of the client API's blocks or mutes has (Mastodon's default limit).
API_PEOPLE = 40


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


async def send_until(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    request: bytes,
    deadline: float,
    answers: dict[int, int],
) -> None:
    """Sends `request` again and again on one keep-alive connection until `deadline`
    (perf_counter), counting the answers' statuses in `answers`."""
    while time.perf_counter() < deadline:
        writer.write(request)
        status = await read_response(reader)
        answers[status] = answers.get(status, 0) + 1


async def hammer(
    base: str,
    path: str,
    cookie: str,
    connections: int,
    seconds: float,
    *,
    readers=None,
    method: str = "GET",
    headers: tuple[tuple[str, str], ...] = (),
) -> Load:
    """`connections` keep-alive connections, each asking for `path` again as soon as
    answered (with `method`, and an empty body if that is POST), with the session
    `cookie` and `headers`; with `readers` (a list of (cookie, paths)), connection i is
    reader i's (of as many as there are, in turn) and asks for each of its paths in turn."""
    url = urlsplit(base)
    readers = readers or [(cookie, [path])]
    body = "Content-Length: 0\r\n" if method == "POST" else ""
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers) + body
    load = Load()

    def request(cookie: str, path: str) -> bytes:
        head = f"{method} {path} HTTP/1.1\r\nHost: {url.netloc}\r\nCookie: {cookie}\r\n"
        return f"{head}{extra}\r\n".encode()

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


@dataclass(frozen=True)
class Page:
    """A row of this part: what is asked for (by `cookie`'s user, else the bench's
    reader; or by each of `readers`, see hammer), its case, and whether it is held to
    TARGET of the bare view."""

    path: str
    case: str
    held: bool = False
    cookie: str = ""
    readers: tuple = ()
    method: str = "GET"
    headers: tuple[tuple[str, str], ...] = ()


BARE = Page("/bench/bare/", "bare view")


def api_pages(reader: str, guarded: str, private: str) -> dict[str, Page]:
    """The client API's reads beside the pages': the reader's (`reader`, an Authorization
    header) notifications and search, the guarded account's blocks and mutes, the private
    account's follow requests, each a page of the API's default size."""

    def read(path: str, authorization: str, what: str = "") -> Page:
        case = f"GET {path.split('?')[0]}{f' ({what})' if what else ''}"
        return Page(path, case, headers=(("Authorization", authorization),))

    return {
        "api notifications": read("/api/v1/notifications", reader, "a full page"),
        "api search": read("/api/v2/search?q=mine&type=statuses", reader, "statuses"),
        "api blocks": read("/api/v1/blocks", guarded, f"{API_PEOPLE} of {GUARDED_BLOCKS}"),
        "api mutes": read("/api/v1/mutes", guarded, f"{API_PEOPLE} of {GUARDED_MUTES}"),
        "api follow requests": read(
            "/api/v1/follow_requests", private, f"{FOLLOW_REQUESTS} pending"
        ),
    }


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
    ctx: Context, pages: dict[str, Page], cookie: str, *, pinned=None, **settings
) -> dict[str, Load]:
    """Each of `pages` under load in turn, ROUNDS times, on one daphne with `settings`;
    with `pinned` (see pinning), daphne on its core and this client on the others;
    `cookie` is the session of the pages with no user of their own."""
    plan = ctx.plan
    loads = {name: Load() for name in pages}
    mine = os.sched_getaffinity(0) if pinned else None

    def load(base: str, page: Page, connections: int, seconds: float) -> Load:
        return asyncio.run(
            hammer(
                base, page.path, page.cookie or cookie, connections, seconds,
                readers=list(page.readers), method=page.method, headers=page.headers,
            )
        )  # fmt: skip

    with daphne(ctx.var_dir, **settings) as (base, process):
        if pinned:
            pin(process.pid, pinned[0])
            os.sched_setaffinity(0, pinned[1])
        try:
            for page in pages.values():  # warm-up: imports, templates, connections
                load(base, page, 2, 0.3)
            for _ in range(ROUNDS):
                for name, page in pages.items():
                    cpu_before = cpu_seconds(process.pid)
                    got = load(base, page, plan.http_connections, plan.http_seconds / ROUNDS)
                    loads[name].server_cpu += cpu_seconds(process.pid) - cpu_before
                    loads[name].seconds += got.seconds
                    loads[name].latencies += got.latencies
                    loads[name].errors += got.errors
        finally:
            if mine:
                os.sched_setaffinity(0, mine)
    return loads


def run(ctx: Context) -> list[Row]:
    conns, statuses = ctx.plan.http_connections, ctx.plan.profile_statuses
    cookie, author_login, conversation, authorization = logged_in_reader(statuses)
    readers = tuple(many_readers(statuses // 2))
    many = (
        f"home pages of {MANY_READERS} readers, {PAGES_EACH} pages each,"
        f" {MANY_AUTHORS * statuses // 2:,} statuses"
    )
    export_cookie, csrf, exported = exporter(statuses)
    lists_cookie, first_list = lister(author_login)
    operator_cookie = operator(exported)
    guarded_cookie, guarded_api = guarded_account()
    private_cookie, private_api = private_account()
    plan = ctx.plan
    marking_cookie = marking_account(plan)
    # A new account: follows nobody, so its home reads who to follow (the most followed
    # and active accounts) with its own round trips.
    _, newcomer_cookie = signed_in("benchnewcomer", "New Comer")
    pages = {
        "home": Page("/", "home page", True),
        "marking home": Page(
            "/",
            f"home page, a reader with {plan.marking_likes:,} likes + {plan.marking_reposts}"
            " reposts",
            cookie=marking_cookie,
        ),
        "profile": Page(f"/u/{author_login}/", "profile page", True),
        "many readers": Page("/", many, True, readers=readers),
        "api home": Page(
            f"/api/v1/timelines/home?limit={API_STATUSES}",
            f"GET /api/v1/timelines/home ({API_STATUSES} statuses)",
            True,
            headers=(("Authorization", authorization),),
        ),
        "notifications": Page("/notifications/", "notifications page"),
        "inbox": Page("/messages/", "inbox page"),
        "conversation": Page(f"/messages/{conversation}/", "conversation page"),
        "search": Page("/search/?q=mine&type=statuses", "search page"),
        "people search": Page("/search/?q=benchfan&type=people", "people search page"),
        "follow requests": Page(
            "/follow-requests/",
            f"follow requests page ({FOLLOW_REQUESTS} pending)",
            cookie=private_cookie,
        ),
        "blocks": Page(
            "/blocks/", f"blocks page ({USERS_PER_PAGE} of {GUARDED_BLOCKS})", cookie=guarded_cookie
        ),
        "mutes": Page(
            "/mutes/", f"mutes page ({USERS_PER_PAGE} of {GUARDED_MUTES})", cookie=guarded_cookie
        ),
        "settings": Page("/accounts/settings/", "settings page"),
        "new home": Page("/", "home page of a new account (who to follow)", cookie=newcomer_cookie),
        "directory": Page("/directory/", f"directory page ({PEOPLE_PER_PAGE} newest)"),
        "directory followed": Page(
            "/directory/?order=followed", f"directory page ({PEOPLE_PER_PAGE} most followed)"
        ),
        "export": Page(
            "/export/",
            f"POST /export/ (JSON of {statuses:,} statuses)",
            cookie=export_cookie,
            method="POST",
            headers=csrf,
        ),
        "lists": Page("/lists/", f"lists page ({LISTS} lists)", cookie=lists_cookie),
        "list": Page(
            f"/lists/{first_list}/",
            f"list timeline page ({MEMBERS} members)",
            cookie=lists_cookie,
        ),
        "reports": Page(
            "/admin/redis/reports/",
            f"admin moderation queue ({REPORTS} open reports)",
            cookie=operator_cookie,
        ),
        "dashboard": Page("/admin/redis/dashboard/", "admin dashboard", cookie=operator_cookie),
        **api_pages(authorization, guarded_api, private_api),
    }
    loads = _serve(ctx, {"bare view": BARE} | pages, cookie)
    bare = loads["bare view"]
    rows = [Row("http", f"bare view, {conns} conns", bare.rate(), notes=_notes(bare))]
    for name, page in pages.items():
        rows.append(_compared(f"{page.case}, {conns} conns", loads[name], bare, held=page.held))
    # The same home page with no rendered card kept: what a page of cards never shown
    # before costs (the reader above sees the same 30 cards on every request).
    cold = _serve(ctx, {"bare view": BARE, "home": pages["home"]}, cookie, STATUS_CARDS_KEPT="0")
    rows.append(
        _compared(f"home page, {conns} conns, no card kept", cold["home"], cold["bare view"])
    )
    pinned = pinning()
    if pinned:
        # daphne alone on one core, the client on the others: what one core serves.
        on_one = {"bare view": BARE, "home": pages["home"], "many readers": pages["many readers"]}
        alone = _serve(ctx, on_one, cookie, pinned=pinned)
        bare_alone = alone["bare view"]
        on_one_core = f"{conns} conns, daphne pinned to one core"
        rows.append(
            Row("http", f"bare view, {on_one_core}", bare_alone.rate(), notes=_notes(bare_alone))
        )
        for name in ("home", "many readers"):
            case = f"{pages[name].case}, {on_one_core}"
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
