"""A page's CSRF token as Django's get_token makes it, with its random characters drawn
from one os.urandom call: Django draws each of a mask's 32 characters (and of a new
secret's 32) with secrets.choice, a system call apiece, ~40 µs a page."""

import os

from django.http import HttpRequest
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

_PLACES = {char: place for place, char in enumerate(CSRF_ALLOWED_CHARS)}
# Bytes below this fall evenly on the characters; the others are drawn again.
_EVEN = 256 - 256 % len(CSRF_ALLOWED_CHARS)


def random_chars(length: int) -> str:
    """`length` characters of CSRF_ALLOWED_CHARS, each as likely as the others (as
    secrets.choice draws them)."""
    chars: list[str] = []
    while len(chars) < length:
        drawn = os.urandom(length + 8)
        chars += [
            CSRF_ALLOWED_CHARS[byte % len(CSRF_ALLOWED_CHARS)] for byte in drawn if byte < _EVEN
        ]
    return "".join(chars[:length])


def get_token(request: HttpRequest) -> str:
    """django.middleware.csrf.get_token: the request's CSRF secret masked anew (and, for a
    request that has none, a new secret that the response's cookie carries)."""
    secret = request.META.get("CSRF_COOKIE")
    if secret is None:
        secret = request.META["CSRF_COOKIE"] = random_chars(CSRF_SECRET_LENGTH)
    # As Django's: the cookie goes out again, which renews its expiry.
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = random_chars(CSRF_SECRET_LENGTH)
    count = len(CSRF_ALLOWED_CHARS)
    cipher = "".join(
        CSRF_ALLOWED_CHARS[(_PLACES[s] + _PLACES[m]) % count]
        for s, m in zip(secret, mask, strict=True)
    )
    return mask + cipher
