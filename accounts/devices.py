"""Device cookies (OWASP's "Slow down online guessing attacks with device cookies"): a
browser that logged in as a login gets a signed cookie naming that login and a random
nonce. Its later tries for that login are limited per cookie
(`login_failures_per_device`); tries from every other browser share the login's limit
(`login_failures_per_login`). Strangers guessing a password so hold back only strangers:
the owner's browser keeps its right to try.

The cookie holds the logins of the browser's last DEVICE_LOGINS_KEPT logins, each with its
nonce, signed with the site's secret and dated: a cookie edited, forged or older than
DEVICE_COOKIE_DAYS is no cookie. It is sent only to the login page."""

import secrets

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

SALT = "accounts.devices"
# A browser shared by a family keeps a cookie for each of them, up to this many.
DEVICE_LOGINS_KEPT = 5


def _max_age() -> int:
    return settings.DEVICE_COOKIE_DAYS * 24 * 3600


def _logins(request: HttpRequest) -> dict[str, str]:
    """The logins (case-folded) the request's device cookie names, with their nonces; {}
    for no cookie or one that isn't ours (edited, forged, expired, malformed)."""
    raw = request.COOKIES.get(settings.DEVICE_COOKIE_NAME)
    if not raw:
        return {}
    try:
        found = signing.loads(raw, salt=SALT, max_age=_max_age())
    except signing.BadSignature:
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        login: nonce
        for login, nonce in found.items()
        if isinstance(login, str) and isinstance(nonce, str)
    }


def login_subject(login: str) -> str:
    """The subject of `login`'s limits, however it was typed (any case, spaces around)."""
    return f"login:{login.strip().casefold()}"


def device_subject(request: HttpRequest, login: str) -> str | None:
    """The subject of the request's device cookie for `login` (as typed), or None if the
    browser has none for it: its tries count against the login's limit for strangers."""
    nonce = _logins(request).get(login.strip().casefold())
    return None if nonce is None else f"device:{nonce}"


def login_limit(request: HttpRequest, login: str) -> tuple[str, str]:
    """The limit (name, subject) this browser's tries for `login` (as typed) count
    against, besides its address's: its device cookie's for the login if it has one,
    else the login's own, which every browser without one shares."""
    device = device_subject(request, login)
    if device is None:
        return "login_failures_per_login", login_subject(login)
    return "login_failures_per_device", device


def remember_device(request: HttpRequest, response: HttpResponse, login: str) -> None:
    """Gives the browser a device cookie for `login`, which it just logged in as, with a
    fresh nonce (a new cookie starts with no failures)."""
    others = [(name, nonce) for name, nonce in _logins(request).items() if name != login.casefold()]
    logins = dict(others[max(0, len(others) - DEVICE_LOGINS_KEPT + 1) :])
    logins[login.casefold()] = secrets.token_urlsafe(16)
    response.set_cookie(
        settings.DEVICE_COOKIE_NAME,
        signing.dumps(logins, salt=SALT, compress=True),
        max_age=_max_age(),
        path=reverse("accounts:login"),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
