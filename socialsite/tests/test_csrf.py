"""A page's CSRF token (socialsite/csrf.py): what Django's CSRF check accepts."""

from collections import Counter

from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CsrfViewMiddleware
from django.test import RequestFactory

from socialsite.csrf import get_token, random_chars


def accepted(secret: str, token: str) -> bool:
    """Whether Django's CSRF check accepts a form's `token` from a browser whose cookie
    holds `secret`."""
    request = RequestFactory().post("/", {"csrfmiddlewaretoken": token})
    request.COOKIES[settings.CSRF_COOKIE_NAME] = secret
    middleware = CsrfViewMiddleware(lambda request: HttpResponse())
    middleware.process_request(request)
    return middleware.process_view(request, lambda request: None, (), {}) is None


def test_random_characters_are_the_tokens_alphabet_each_as_likely():
    drawn = random_chars(200_000)
    assert len(drawn) == 200_000
    counts = Counter(drawn)
    assert set(counts) == set(CSRF_ALLOWED_CHARS)
    expected = 200_000 / len(CSRF_ALLOWED_CHARS)  # ~3,226, give or take ~56
    assert all(abs(count - expected) < 500 for count in counts.values())


def test_a_token_is_the_browsers_secret_masked_anew_each_time():
    secret = random_chars(32)
    request = RequestFactory().get("/")
    request.META["CSRF_COOKIE"] = secret
    first, second = get_token(request), get_token(request)
    assert first != second
    assert len(first) == 64 and set(first) <= set(CSRF_ALLOWED_CHARS)
    assert accepted(secret, first) and accepted(secret, second)
    assert not accepted(random_chars(32), first)
    assert request.META["CSRF_COOKIE"] == secret
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"]


def test_a_request_without_a_secret_gets_one_for_its_cookie():
    request = RequestFactory().get("/")
    token = get_token(request)
    secret = request.META["CSRF_COOKIE"]
    assert len(secret) == 32 and request.META["CSRF_COOKIE_NEEDS_UPDATE"]
    assert accepted(secret, token)
