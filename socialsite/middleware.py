"""Middleware of the site's own."""

import functools
import re
from collections.abc import Callable, Mapping

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

from .views import api_error, error_page, is_api_path


def method_not_allowed_page(get_response: Callable) -> Callable:
    """Gives Django's blank 405 (require_POST, a class-based view's missing method) the
    site's error page, saying which methods the address takes; a 405 that already says
    something (a JSON API's) is left alone."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if not isinstance(response, HttpResponseNotAllowed) or response.content:
            return response
        allowed = response["Allow"]
        if is_api_path(request.path):
            # The client API's and OAuth 2's: JSON, as their other errors (apinotif).
            refusal = api_error(request.path, 405, f"Use {allowed.replace(', ', ' or ')}.")
            refusal["Allow"] = allowed
            return refusal
        # A class-based view also allows OPTIONS (and HEAD with GET): not worth saying.
        methods = [m.strip() for m in allowed.split(",") if m.strip() not in ("OPTIONS", "HEAD")]
        if methods == ["POST"]:
            message = (
                "This address only takes a form's POST (a button on a page): "
                "opening it in the browser does nothing."
            )
        else:
            message = (
                f"This address takes only {' or '.join(methods)} requests, not {request.method}."
            )
        page = error_page(request, 405, message)
        page["Allow"] = allowed
        return page

    return middleware


# The Content-Security-Policy of every answer (OWASP's cheat sheet, as Mastodon's): the
# site's own scripts, styles, pictures and videos (and MEDIA_ORIGINS') and sockets only, and nothing
# inline, which no page has (socialsite/tests/test_csp.py reads every template for it). A
# view may change a directive for its answer (`with_policy`): the OAuth consent page lets
# its form lead to the app's redirect URI.
CONTENT_SECURITY_POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    # data: for the admin's icons, drawn inline in its stylesheets.
    "img-src": "'self' data:",
    # Videos and animated GIFs on statuses (timeline.media), from MEDIA_ORIGINS too.
    "media-src": "'self'",
    # 'self' takes in the site's own ws:// and wss:// (CSP Level 3).
    "connect-src": "'self'",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
POLICY_HEADER = "Content-Security-Policy"


def policy_text(changes: Mapping[str, str]) -> str:
    """The site's policy, as its header says it, with `changes` to its directives."""
    return _policy_text(tuple(changes.items()), tuple(settings.MEDIA_ORIGINS))


@functools.lru_cache(maxsize=64)
def _policy_text(changes: tuple[tuple[str, str], ...], media: tuple[str, ...]) -> str:
    directives = {**CONTENT_SECURITY_POLICY, **dict(changes)}
    for name in ("img-src", "media-src"):
        directives[name] = " ".join([directives[name], *media])
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def with_policy(response: HttpResponse, **changes: str) -> HttpResponse:
    """Gives `response` the site's policy changed by `changes` (directive names with "_"
    for "-", e.g. form_action="'self' https://app.example")."""
    named = {name.replace("_", "-"): value for name, value in changes.items()}
    response[POLICY_HEADER] = policy_text(named)
    return response


def content_security_policy(get_response: Callable) -> Callable:
    """Gives every answer the site's Content-Security-Policy, unless its view set one."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if POLICY_HEADER not in response:
            response[POLICY_HEADER] = policy_text({})
        return response

    return middleware


def with_security_policy(app: Callable, *, exempt: re.Pattern[str]) -> Callable:
    """ASGI: gives the site's Content-Security-Policy to every HTTP answer `app` makes
    without one, those that never reach Django's middleware too (socialsite.ratelimit's
    early refusals), but for paths `exempt` matches (without their leading "/");
    WebSockets pass untouched."""
    header = POLICY_HEADER.lower().encode()

    async def guarded(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or exempt.match(scope["path"].lstrip("/")):
            return await app(scope, receive, send)

        async def send_with_policy(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == header for name, _ in headers):
                    headers.append((header, policy_text({}).encode()))
                    message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_with_policy)

    return guarded
