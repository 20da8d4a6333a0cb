"""6. A login flood: clients looping failed logins beside a reader of /timeline/, on one
daphne (HTTP_CONCURRENCY=1, the default). Hashing a password costs a few hundred ms,
so without limits the flood takes the server from everyone else; once the address has
failed too often its logins are refused before any hashing. The reader's p50 is
reported quiet, flooded, and flooded with the limits set out of reach, same run."""

import asyncio
import re
import time
from urllib.parse import urlencode, urlsplit

from django.core.management import call_command

from .context import Context
from .measure import Latency, Row, latency_of
from .servers import daphne
from .web import Load, hammer, read_head, send_until

FLOODERS = 8
TARGET = 2.0
LOGIN = "/accounts/login/"
READER_PATH = "/timeline/"
# Limits no flood of a bench's length reaches: the unlimited baseline.
OUT_OF_REACH = {
    "RATE_LIMIT_LOGIN_FAILURES_PER_IP": "1000000/1",
    "RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN": "1000000/1",
}


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


async def _read_beside_flood(base: str, seconds: float, flooders: int) -> tuple[Load, dict]:
    answers: dict[int, int] = {}
    deadline = time.perf_counter() + seconds
    floods = [_flooder(base, deadline, answers) for _ in range(flooders)]
    load, *_ = await asyncio.gather(hammer(base, READER_PATH, "", 1, seconds), *floods)
    return load, answers


def _reader_p50(base: str, seconds: float, flooders: int) -> tuple[Latency, dict]:
    asyncio.run(hammer(base, READER_PATH, "", 1, 0.3))  # warm-up
    load, answers = asyncio.run(_read_beside_flood(base, seconds, flooders))
    return latency_of(load.latencies), answers


def run(ctx: Context) -> list[Row]:
    # A login nobody has: Django hashes the password all the same (so that timing
    # doesn't tell which logins exist).
    call_command("migrate", verbosity=0, interactive=False)
    seconds = ctx.plan.http_seconds
    with daphne(ctx.var_dir) as (base, _):
        quiet, _ = _reader_p50(base, seconds, 0)
        flooded, answers = _reader_p50(base, seconds, FLOODERS)
    ctx.conn.delete(*ctx.conn.scan_iter("ratelimit:*"))
    with daphne(ctx.var_dir, **OUT_OF_REACH) as (base, _):
        unlimited, unlimited_answers = _reader_p50(base, seconds, FLOODERS)
    case = f"/timeline/ p50, {FLOODERS} clients looping failed logins"
    return [
        Row(
            "login flood",
            case,
            flooded,
            "the same reader, no flood",
            quiet,
            target=f"<= {TARGET:g}x quiet",
            met=flooded.p50_ms <= TARGET * quiet.p50_ms,
            # 400: a password hashed and refused; 429: refused by the limit, unhashed.
            notes={"flood_answers": answers},
        ),
        Row(
            "login flood",
            f"{case}, limits out of reach",
            unlimited,
            "the same reader, no flood",
            quiet,
            notes={"flood_answers": unlimited_answers},
        ),
    ]
