"""10. An avatar uploader: one client uploading the costliest picture allowed (a blank
39.99-megapixel RGBA PNG, socialsite.testing.pictures) from the settings page in a
loop, beside a reader of their home, on one daphne (HTTP_CONCURRENCY=1, the default).
Redrawing it costs ~0.5 s of CPU; in the request's slot every page waited for it. The
reader's p50 is reported with the uploads and quiet, in windows taken in turn."""

import asyncio
import time
import uuid
from urllib.parse import urlsplit

from django.core.management import call_command

from accounts.avatars import AVATAR_MAX_PIXELS
from socialsite.testing.pictures import costliest_allowed
from timeline.graph import services as graph

from .context import Context
from .measure import Latency, Row, latency_of
from .pages import author_with_statuses
from .servers import daphne
from .web import hammer, send_until
from .web_accounts import signed_in

TARGET = 2.0
# Quiet and loaded windows, taken in turn.
ROUNDS = 4
READER_PATH = "/"
UPLOAD_PATH = "/accounts/avatar/"
CSRF = "b" * 32  # a CSRF secret: the same in the cookie and the header


def upload_request(netloc: str, cookie: str, picture: bytes) -> bytes:
    """The settings page's avatar form, posted with `picture`, as one HTTP/1.1 request."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="avatar"; filename="me.png"\r\n'
            f"Content-Type: image/png\r\n\r\n"
        ).encode()
        + picture
        + f"\r\n--{boundary}--\r\n".encode()
    )
    head = (
        f"POST {UPLOAD_PATH} HTTP/1.1\r\nHost: {netloc}\r\n"
        f"Cookie: {cookie}; csrftoken={CSRF}\r\nX-CSRFToken: {CSRF}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _uploader(
    base: str, cookie: str, picture: bytes, deadline: float, answers: dict[int, int]
) -> None:
    """One client posting `picture` again and again on one connection."""
    url = urlsplit(base)
    request = upload_request(url.netloc, cookie, picture)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    try:
        await send_until(reader, writer, request, deadline, answers)
    finally:
        writer.close()


async def _read_beside_uploads(
    base: str, reader_cookie: str, uploads: tuple[str, bytes] | None, seconds: float
) -> tuple[list[float], dict[int, int]]:
    """The reader's latencies over `seconds`, beside a client uploading (its cookie, the
    picture) if `uploads`; and the uploads' answers, by status. Returns once the last
    upload is answered: none runs on into what is measured next."""
    answers: dict[int, int] = {}
    deadline = time.perf_counter() + seconds
    uploaders = [_uploader(base, *uploads, deadline, answers)] if uploads else []
    load, *_ = await asyncio.gather(
        hammer(base, READER_PATH, reader_cookie, 1, seconds), *uploaders
    )
    return load.latencies, answers


def _quiet_and_loaded(
    base: str, reader_cookie: str, uploads: tuple[str, bytes], seconds: float
) -> tuple[Latency, Latency, dict[int, int]]:
    """The reader's latency quiet and beside the uploads, each over `seconds` in ROUNDS
    windows taken in turn, so that what the machine's other users do weighs on both
    alike; and the uploads' answers."""
    quiet: list[float] = []
    loaded: list[float] = []
    answers: dict[int, int] = {}
    for _ in range(ROUNDS):
        quiet += asyncio.run(_read_beside_uploads(base, reader_cookie, None, seconds / ROUNDS))[0]
        latencies, found = asyncio.run(
            _read_beside_uploads(base, reader_cookie, uploads, seconds / ROUNDS)
        )
        loaded += latencies
        for status, count in found.items():
            answers[status] = answers.get(status, 0) + count
    return latency_of(quiet), latency_of(loaded), answers


def run(ctx: Context) -> list[Row]:
    call_command("migrate", verbosity=0, interactive=False)
    seconds = ctx.plan.http_seconds
    picture = costliest_allowed(AVATAR_MAX_PIXELS)
    reader, reader_cookie = signed_in("benchhomereader", "Home Reader")
    graph.follow_user(reader, author_with_statuses(ctx.plan.profile_statuses))
    uploads = (signed_in("benchuploader", "Uploader")[1], picture)
    with daphne(ctx.var_dir) as (base, _):
        asyncio.run(hammer(base, READER_PATH, reader_cookie, 1, 0.3))  # warm-up
        # The first upload starts the process's picture server: not part of the loop's cost.
        asyncio.run(_read_beside_uploads(base, reader_cookie, uploads, 0.1))
        quiet, loaded, answers = _quiet_and_loaded(base, reader_cookie, uploads, seconds)
    return [
        Row(
            "avatar upload",
            "home page p50, one client uploading the costliest avatar allowed in a loop",
            loaded,
            "the same reader, no uploads",
            quiet,
            target=f"<= {TARGET:g}x quiet",
            met=loaded.p50_ms <= TARGET * quiet.p50_ms,
            # 302: an avatar stored (back to the settings page); 400: refused, as busy.
            notes={"upload_answers": answers, "picture_bytes": len(picture)},
        )
    ]
