"""6. Floods beside a reader of /timeline/, on one daphne (HTTP_CONCURRENCY=1, the
default). A login flood: hashing a password costs a few hundred ms, so without limits
the flood takes the server from everyone else; once the address has failed too often its
logins are refused before any hashing. A visitors' read flood: clients with no session
looping the client API's public timeline; once the address is over its reads limit they
are refused before Django. The reader's p50 is reported quiet, flooded, and flooded with
the limits set out of reach, same run."""

import asyncio
import re
import time
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.core.management import call_command

from .context import Context
from .measure import Latency, Row, latency_of
from .pages import author_with_statuses
from .servers import daphne
from .web import Load, hammer, read_head, send_until
from .web_accounts import signed_in

FLOODERS = 8
TARGET = 2.0
LOGIN = "/accounts/login/"
READER_PATH = "/timeline/"
# Limits no flood of a bench's length reaches: the unlimited baseline.
OUT_OF_REACH = {
    "RATE_LIMIT_LOGIN_FAILURES_PER_IP": "1000000/1",
    "RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN": "1000000/1",
}
VISITORS = 4
PUBLIC = "/api/v1/timelines/public"


async def _flooder(base: str, deadline: float, answers: dict[int, int]) -> None:
    """One client: fetches the login form (CSRF cookie and token), then posts a wrong
    password for a real login again and again on one keep-alive connection."""
    url = urlsplit(base)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    try:
        writer.write(f"GET {LOGIN} HTTP/1.1\r\nHost: {url.netloc}\r\n\r\n".encode())
        status, headers = await read_head(reader)
        page = (await reader.readexactly(int(headers["content-length"]))).decode()
        cookie = headers["set-cookie"].split(";", 1)[0]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        body = urlencode(
            {"csrfmiddlewaretoken": token, "username": "victim", "password": "not it"}
        ).encode()
        request = (
            f"POST {LOGIN} HTTP/1.1\r\nHost: {url.netloc}\r\nCookie: {cookie}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        await send_until(reader, writer, request, deadline, answers)
    finally:
        writer.close()


async def _visitor(base: str, deadline: float, answers: dict[int, int]) -> None:
    """One client with no session reading the public timeline again and again on one
    keep-alive connection."""
    url = urlsplit(base)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    try:
        request = f"GET {PUBLIC} HTTP/1.1\r\nHost: {url.netloc}\r\n\r\n".encode()
        await send_until(reader, writer, request, deadline, answers)
    finally:
        writer.close()


async def _read_beside_flood(
    base: str, seconds: float, flooders: int, flooder, cookie: str
) -> tuple[Load, dict]:
    answers: dict[int, int] = {}
    deadline = time.perf_counter() + seconds
    floods = [flooder(base, deadline, answers) for _ in range(flooders)]
    load, *_ = await asyncio.gather(hammer(base, READER_PATH, cookie, 1, seconds), *floods)
    return load, answers


def _reader_p50(
    base: str, seconds: float, flooders: int, flooder, cookie: str
) -> tuple[Latency, dict]:
    asyncio.run(hammer(base, READER_PATH, cookie, 1, 0.3))  # warm-up
    load, answers = asyncio.run(_read_beside_flood(base, seconds, flooders, flooder, cookie))
    return latency_of(load.latencies), answers


def _forget_limits(ctx: Context) -> None:
    """Every rate limit's count, as if the site had been quiet."""
    for key in ctx.conn.scan_iter("ratelimit:*"):
        ctx.conn.delete(key)


def run(ctx: Context) -> list[Row]:
    return [*_login_flood(ctx), *_read_flood(ctx)]


def _login_flood(ctx: Context) -> list[Row]:
    # A login nobody has: Django hashes the password all the same (so that timing
    # doesn't tell which logins exist).
    call_command("migrate", verbosity=0, interactive=False)
    case = f"/timeline/ p50, {FLOODERS} clients looping failed logins"
    # Answers: 400, a password hashed and refused; 429, refused by the limit, unhashed.
    return _flood_rows(ctx, "login flood", case, _flooder, FLOODERS, "", {}, OUT_OF_REACH)


def _read_flood(ctx: Context) -> list[Row]:
    """A signed-in reader of home beside visitors looping the public timeline, with the
    shipped visitors' reads limit (the bench's settings lift it elsewhere) and without."""
    _, cookie = signed_in("benchfloodreader", "Flood Reader")
    author_with_statuses(ctx.plan.profile_statuses)  # a public timeline worth reading
    shipped = {"RATE_LIMIT_ANONYMOUS_READS": settings.ANONYMOUS_READS_DEFAULT}
    case = f"/timeline/ p50 signed in, {VISITORS} visitors looping {PUBLIC}"
    # Answers: 200, read; 429, refused by the limit before Django.
    return _flood_rows(ctx, "visitors' read flood", case, _visitor, VISITORS, cookie, shipped, {})


def _flood_rows(
    ctx: Context,
    section: str,
    case: str,
    flooder,
    flooders: int,
    cookie: str,
    limited: dict[str, str],
    out_of_reach: dict[str, str],
) -> list[Row]:
    """The reader (session `cookie`) quiet and beside `flooders` `flooder`s on a daphne
    with the `limited` environment, then beside them with the limits `out_of_reach`:
    the target row, and the row showing what the limits spare the reader."""
    seconds = ctx.plan.http_seconds
    _forget_limits(ctx)
    with daphne(ctx.var_dir, **limited) as (base, _):
        quiet, _ = _reader_p50(base, seconds, 0, flooder, cookie)
        flooded, answers = _reader_p50(base, seconds, flooders, flooder, cookie)
    _forget_limits(ctx)
    with daphne(ctx.var_dir, **out_of_reach) as (base, _):
        unlimited, unlimited_answers = _reader_p50(base, seconds, flooders, flooder, cookie)
    return [
        Row(
            section,
            case,
            flooded,
            "the same reader, no flood",
            quiet,
            target=f"<= {TARGET:g}x quiet",
            met=flooded.p50_ms <= TARGET * quiet.p50_ms,
            notes={"flood_answers": answers},
        ),
        Row(
            section,
            f"{case}, limits out of reach",
            unlimited,
            "the same reader, no flood",
            quiet,
            notes={"flood_answers": unlimited_answers},
        ),
    ]
