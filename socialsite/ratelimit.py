"""Rate limits, kept in Redis so that every server process shares them.

Each limit is a name in settings.RATE_LIMITS, `(count, seconds)`: `count` actions fit
in any `seconds`, all at once or spread out, and one more every seconds/count after
that (GCRA, lua/rate_limit.lua). A subject (an account, an address, a login) has one
key per limit, touched by one script call: cluster-safe, atomic, and gone by itself
once the subject has been quiet for the window. A limit reached lifts gradually, so
nobody is kept out for longer than its window.

What each limit counts, as its 429 words it, is in COUNTS: views name a limit and no
more. Views say what they limit with `rate_limited(...)`, or ask `wait_seconds` / `enforce`
themselves where only some outcomes count (failed logins, signups made); over a
limit the answer is `too_many_requests`: 429, Retry-After, and a page saying what
was limited and when to try again (JSON under /api/). The check comes before the
action, so a refused request changes nothing but the limit's own key.

Visitors' reads are counted per address where it is cheapest to know they are a
visitor's: before Django for a read offering no credential (refuse_anonymous_reads),
in Django for one whose session or token proves to be nobody's (count_visitor_reads,
count_visitor_read)."""

import asyncio
import inspect
import json
import math
import time
from collections.abc import Callable
from functools import wraps

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader

from . import keys
from .kept import keep
from .redis import get_async_redis, get_redis
from .scripts import LuaScripts
from .views import inline_error, is_htmx

_lua = LuaScripts(__file__)


# What each limit of settings.RATE_LIMITS counts, as its 429 says it: "Too many <it> for now".
COUNTS = {
    "login_failures_per_login": "failed logins",
    "login_failures_per_device": "failed logins",
    "login_failures_per_ip": "failed logins",
    "signups_per_ip": "signups",
    "posts": "posts",
    "edits": "edits",
    "follows": "follows and unfollows",
    "reactions": "likes and reposts",
    "poll_votes": "votes",
    "list_changes": "list changes",
    "stream_keys": "stream keys made",
    "password_changes": "password changes",
    "messages": "messages",
    "safety": "blocks and mutes",
    "reports": "reports",
    "group_creations": "groups made",
    "group_joins": "groups joined",
    "keeps": "bookmarks, pins and followed tags",
    "account_deletions": "tries to delete the account",
    "exports": "data exports",
    "searches": "searches",
    "apps_per_ip": "apps registered",
    "profile_changes": "profile changes",
    "avatar_changes": "avatar changes",
    "media": "media uploads",
    "group_moderation": "group moderation acts",
    "settings_changes": "settings changes",
    "anonymous_reads": "pages read without logging in",
}


API_PREFIX = "/api/"
# Visitors' reads are limited (`anonymous_reads`); other methods have limits of their own.
READ_METHODS = ("GET", "HEAD")
# The addresses this process found over `anonymous_reads` with a credential that proved
# to be nobody's (an ended session): address -> when (time.monotonic()) to ask Redis
# again. Their reads are then refused before the view, not after it.
_visitors_held_back: dict[str, float] = {}
HELD_BACK_KEPT = 10_000


class RateLimited(Exception):
    def __init__(self, what: str, retry_after: int) -> None:
        self.what, self.retry_after = what, retry_after
        super().__init__(f"Too many {what} for now: try again in {_duration(retry_after)}.")


def wait_seconds(name: str, subject: str, *, record: bool = True) -> int:
    """0 if `subject` may act under limit `name` now (and, with `record`, counts the
    action), else the whole seconds until it may."""
    return _seconds(_ask(get_redis(), name, subject, record))


async def wait_seconds_async(name: str, subject: str, *, record: bool = True) -> int:
    """`wait_seconds` for the event loop."""
    return _seconds(await _ask(get_async_redis(), name, subject, record))


def _ask(client, name: str, subject: str, record: bool):
    count, seconds = settings.RATE_LIMITS[name]
    key = keys.rate_limit(name, subject)
    return rate_limit(client, limit_key=key, period_ms=seconds * 1000, count=count, record=record)


def rate_limit(client, *, limit_key: str, period_ms: int, count: int, record: bool):
    """Runs lua/rate_limit.lua (the only way to): 0 if the action is allowed (and, with
    `record`, counted), else the milliseconds until it will be."""
    return _lua.run(client, "rate_limit", [limit_key], [period_ms, count, int(record)])


def _seconds(waiting_ms) -> int:
    return math.ceil(int(waiting_ms) / 1000)


def enforce(name: str, subject: str, *, record: bool = True) -> None:
    """As `wait_seconds`, raising RateLimited (saying "Too many" what the limit COUNTS)
    over the limit."""
    retry_after = wait_seconds(name, subject, record=record)
    if retry_after:
        raise RateLimited(COUNTS[name], retry_after)


def forget(name: str, subject: str) -> None:
    """Starts `subject` afresh under limit `name` (e.g. a login's failures, once it succeeds)."""
    get_redis().delete(keys.rate_limit(name, subject))


def whole_again_at(name: str, subject: str) -> int | None:
    """When (Unix ms) `subject`'s allowance under limit `name` is whole again, or None if
    it is whole now (nothing counted within the window, or forgotten)."""
    value = get_redis().get(keys.rate_limit(name, subject))
    return None if value is None else int(value)


def account(request: HttpRequest) -> str:
    return f"user:{request.user.pk}"


def address(request: HttpRequest) -> str:
    """The address a request came from (behind a proxy, daphne's --proxy-headers makes
    it the client's rather than the proxy's)."""
    return f"ip:{request.META.get('REMOTE_ADDR') or 'unknown'}"


def account_or_address(request: HttpRequest) -> str:
    """The signed-in account, else the visitor's address."""
    return account(request) if request.user.is_authenticated else address(request)


def too_many_requests(request: HttpRequest, error: RateLimited) -> HttpResponse:
    """429 with Retry-After and the page saying what was limited and when to try again
    (under /api/, JSON saying it, as the client API's errors do)."""
    if request.path.startswith(API_PREFIX):
        response: HttpResponse = JsonResponse({"error": str(error)}, status=429)
    elif is_htmx(request):
        response = inline_error(429, str(error))
    else:
        response = render(request, "429.html", {"message": str(error)}, status=429)
    response["Retry-After"] = str(error.retry_after)
    return response


def rate_limited(name: str, per: Callable[[HttpRequest], str] = account):
    """Counts each POST to the view against limit `name` for `per(request)` (the
    logged-in account by default: put it inside the login check), answering 429 over it.
    An async view stays async, asking Redis from the event loop."""

    def decorator(view):
        if inspect.iscoroutinefunction(view):

            @wraps(view)
            async def limited_async(request: HttpRequest, *args, **kwargs) -> HttpResponse:
                if request.method == "POST":
                    # per() may read the user: sync code (the cache, maybe the database).
                    subject = await sync_to_async(per)(request)
                    retry_after = await wait_seconds_async(name, subject)
                    if retry_after:
                        return too_many_requests(request, RateLimited(COUNTS[name], retry_after))
                return await view(request, *args, **kwargs)

            return limited_async

        @wraps(view)
        def limited(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method == "POST":
                try:
                    enforce(name, per(request))
                except RateLimited as error:
                    return too_many_requests(request, error)
            return view(request, *args, **kwargs)

        return limited

    return decorator


def refuse_early(limits: dict[str, str], app):
    """ASGI: a POST to a path of `limits` (path: limit name) from an
    address over that limit is answered here, 429 and the same page, without counting
    it, before it queues for a place in Django (socialsite.concurrency) or parses its
    body: a flood of refused logins then costs one Redis call each, not a page's worth
    of Django. The answer comes after RATE_LIMITED_DELAY_SECONDS (at most the wait):
    a client that waits for its answers, as a flooding script does, gets one try per
    delay per connection. The views check the same limits themselves; this only
    refuses sooner."""

    async def limited(scope, receive, send):
        name = limits.get(scope["path"]) if scope.get("method") == "POST" else None
        if name is not None:
            client = scope.get("client")
            subject = f"ip:{client[0] if client else 'unknown'}"
            retry_after = await wait_seconds_async(name, subject, record=False)
            if retry_after:
                await asyncio.sleep(min(settings.RATE_LIMITED_DELAY_SECONDS, retry_after))
                return await _send_429(send, RateLimited(COUNTS[name], retry_after))
        return await app(scope, receive, send)

    return limited


def _offers_credential(path: str, headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether a request says who it is: the client API by a token (Authorization), the
    pages by a session cookie. Whether it really is someone is known only in Django."""
    if path.startswith(API_PREFIX):
        return any(name == b"authorization" for name, _ in headers)
    session = settings.SESSION_COOKIE_NAME.encode()
    return any(
        name == b"cookie" and any(_is_set(part, session) for part in value.split(b";"))
        for name, value in headers
    )


def _is_set(cookie: bytes, name: bytes) -> bool:
    """Whether `cookie` ("name=value" of a Cookie header) sets `name` to something."""
    key, _, value = cookie.strip().partition(b"=")
    return key == name and bool(value.strip())


def _is_limited_read(method: str, path: str) -> bool:
    return method in READ_METHODS and not (
        settings.SERVE_MEDIA and path.startswith(settings.MEDIA_URL)
    )


def refuse_anonymous_reads(app):
    """ASGI: a read (GET, HEAD) offering no credential (no session cookie for a page, no
    token for the API) is counted against its address's `anonymous_reads` here, and over
    the limit answered 429 (JSON under /api/) after RATE_LIMITED_DELAY_SECONDS, before it
    queues for a place in Django: a flood of reads costs one Redis call each. A request
    offering a credential goes on: Django counts it if the credential proves to be
    nobody's (count_visitor_reads, api.http's token check)."""

    async def limited(scope, receive, send):
        method, path = scope.get("method", ""), scope.get("path", "")
        if _is_limited_read(method, path) and not _offers_credential(path, scope["headers"]):
            client = scope.get("client")
            subject = f"ip:{client[0] if client else 'unknown'}"
            retry_after = await wait_seconds_async("anonymous_reads", subject)
            if retry_after:
                await asyncio.sleep(min(settings.RATE_LIMITED_DELAY_SECONDS, retry_after))
                error = RateLimited(COUNTS["anonymous_reads"], retry_after)
                return await _send_429(send, error, as_json=path.startswith(API_PREFIX))
        return await app(scope, receive, send)

    return limited


def count_visitor_read(request: HttpRequest) -> None:
    """Counts a read whose credential proved to be nobody's (a made-up or revoked token)
    against its address's `anonymous_reads`: RateLimited over it."""
    if _is_limited_read(request.method or "", request.path):
        enforce("anonymous_reads", address(request))


def count_visitor_reads(get_response: Callable[[HttpRequest], HttpResponse]):
    """Middleware (after authentication): a page read offering a session cookie that
    proves to be nobody's (ended, made up) counts against its address's `anonymous_reads`
    once the view has read its user (reading it sooner would cost signed-in pages the
    round trip they share with it); an address found over the limit so has such reads
    refused before the view until it may read again. Reads offering no credential were
    counted before Django (refuse_anonymous_reads); the API's tokens are counted by its
    token check (count_visitor_read)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if (
            not _is_limited_read(request.method or "", request.path)
            or request.path.startswith(API_PREFIX)
            or not request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        ):
            return get_response(request)
        subject = address(request)
        held_back = _visitors_held_back.get(subject, 0) > time.monotonic()
        if held_back and not request.user.is_authenticated:
            retry_after = wait_seconds("anonymous_reads", subject)
            if retry_after:
                return _held_back(request, subject, retry_after)
            _visitors_held_back.pop(subject, None)
            return get_response(request)
        response = get_response(request)
        user = getattr(request, "_cached_user", None)
        if user is not None and not user.is_authenticated:
            retry_after = wait_seconds("anonymous_reads", subject)
            if retry_after:
                return _held_back(request, subject, retry_after)
        return response

    return middleware


def _held_back(request: HttpRequest, subject: str, retry_after: int) -> HttpResponse:
    keep(_visitors_held_back, subject, time.monotonic() + retry_after, HELD_BACK_KEPT)
    return too_many_requests(request, RateLimited(COUNTS["anonymous_reads"], retry_after))


async def _send_429(send, error: RateLimited, *, as_json: bool = False) -> None:
    if as_json:
        body = json.dumps({"error": str(error)}).encode()
        content_type = b"application/json"
    else:
        body = loader.render_to_string("429.html", {"message": str(error)}).encode()
        content_type = b"text/html; charset=utf-8"
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(error.retry_after).encode()),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _duration(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
