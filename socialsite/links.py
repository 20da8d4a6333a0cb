"""URLs reversed once per shape: reverse() takes ~25 µs, and a page of 30 status cards
links ~200 URLs of a few shapes, its nav ten more. The pages' `url()` (socialsite.jinja2)
goes through here."""

import functools
from urllib.parse import quote

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

# Matches both URL converters the card links use (<int:...> and <str:...>).
_SENTINEL = "9081726354"
_PATH_SAFE = RFC3986_SUBDELIMS + "/~:@"  # what reverse() leaves unquoted


@functools.cache
def _url_shape(name: str) -> tuple[str, str]:
    before, _, after = reverse(name, args=[_SENTINEL]).partition(_SENTINEL)
    return before, after


def url(name: str, arg: int | str) -> str:
    """reverse(name, args=[arg]) for a URL with one argument, at a fraction of the cost:
    reverse() takes ~25 µs, and a page of 30 status cards links ~200 URLs of a few
    shapes. Unlike reverse() it doesn't check `arg` against the URL's pattern (cards
    pass ids, logins and tags, which fit), and it assumes one URLconf and script prefix
    per process (the site sets no per-request urlconf)."""
    before, after = _url_shape(name)
    return f"{before}{_quoted(str(arg))}{after}"


@functools.lru_cache(maxsize=4096)
def _quoted(arg: str) -> str:
    """`arg` quoted for a path as reverse() quotes it: ~3 µs, and a page quotes the same
    few logins and ids again and again."""
    return quote(arg, safe=_PATH_SAFE)


@functools.cache
def plain_url(name: str) -> str:
    """reverse(name) for a URL without arguments, reversed once (~15 µs each time
    otherwise, and a page's nav has ten); the same assumptions as url()."""
    return reverse(name)


@receiver(setting_changed)
def _forget_url_shapes(*, setting: str, **kwargs) -> None:
    if setting in ("ROOT_URLCONF", "FORCE_SCRIPT_NAME"):
        _url_shape.cache_clear()
        plain_url.cache_clear()
