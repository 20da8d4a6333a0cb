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
was limited and when to try again. The check comes before the action, so a refused
request changes nothing but the limit's own key."""

import asyncio
import math
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader

from . import keys
from .redis import get_async_redis, get_redis
from .scripts import LuaScripts

_lua = LuaScripts(__file__)


# What each limit of settings.RATE_LIMITS counts, as its 429 says it: "Too many <it> for now".
COUNTS = {
    "login_failures_per_login": "failed logins",
    "login_failures_per_ip": "failed logins",
    "signups_per_ip": "signups",
    "posts": "posts",
    "follows": "follows and unfollows",
    "reactions": "likes and reposts",
    "list_changes": "list changes",
    "stream_keys": "stream keys made",
    "password_changes": "password changes",
    "messages": "messages",
    "safety": "blocks and mutes",
    "reports": "reports",
    "account_deletions": "tries to delete the account",
    "exports": "data exports",
    "searches": "searches",
    "apps_per_ip": "apps registered",
}


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
    """429 with Retry-After and the page saying what was limited and when to try again."""
    response = render(request, "429.html", {"message": str(error)}, status=429)
    response["Retry-After"] = str(error.retry_after)
    return response


def rate_limited(name: str, per: Callable[[HttpRequest], str] = account):
    """Counts each POST to the view against limit `name` for `per(request)` (the
    logged-in account by default: put it inside the login check), answering 429 over it."""

    def decorator(view):
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


async def _send_429(send, error: RateLimited) -> None:
    body = loader.render_to_string("429.html", {"message": str(error)}).encode()
    headers = [
        (b"content-type", b"text/html; charset=utf-8"),
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
