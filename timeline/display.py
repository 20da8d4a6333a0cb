"""Showing statuses: message text with @mentions, #tags and links linked, times, and
the URLs a status card links to. Plain functions, given to the pages' Jinja2
environment (socialsite/jinja2.py); `posted_at` is a Django filter too, for the admin."""

import functools
from datetime import UTC, datetime
from urllib.parse import quote

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.timesince import timesince
from markupsafe import Markup, escape

from timeline.text import LINK, MENTION, TAG

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
    return f"{before}{quote(str(arg), safe=_PATH_SAFE)}{after}"


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


# markupsafe rather than Django's escape/format_html: those check every argument for
# lazy strings, and a card's text cost twice as much through them.
_LINK = Markup('<a href="{0}" rel="nofollow noopener noreferrer">{0}</a>')
_MENTION = Markup('<a class="mention" href="{}">@{}</a>')
_TAG = Markup('<a class="tag" href="{}">{}</a>')


def _link(match) -> str:
    return _LINK.format(match[0])


def _mention(match) -> str:
    return _MENTION.format(url("profile", match[1]), match[1])


def _tag(match) -> str:
    return _TAG.format(url("tag", match[1].lower()), match[0])


MARKUP = ((LINK, _link), (MENTION, _mention), (TAG, _tag))


def linkify(message: str, known: str | None = None) -> Markup:
    """The message, HTML-escaped, with links, @mentions and #tags clickable. Given `known`
    (a status's `mentions`: the logins that existed, space-separated), other @mentions
    stay plain text."""
    linked = None if known is None else set(known.split())
    found = sorted(
        ((match.start(), match, render) for pattern, render in MARKUP
         for match in pattern.finditer(message)
         if render is not _mention or linked is None or match[1].lower() in linked),
        key=lambda item: item[0],
    )  # fmt: skip
    parts, done = [], 0
    for start, match, render in found:
        # Where matches overlap the first one wins: "https://x.org/#top" is a link, not a tag.
        if start < done:
            continue
        parts += [escape(message[done:start]), render(match)]
        done = match.end()
    parts.append(escape(message[done:]))
    return Markup("".join(parts))


def status_text(status: dict) -> Markup:
    """A status's message, linkified: only the @mentions of users that existed are links."""
    return linkify(status["message"], status.get("mentions", ""))


def posted_at(posted: float) -> datetime:
    """A status's `posted` (Unix seconds) as an aware datetime."""
    return datetime.fromtimestamp(float(posted), tz=UTC)


def ago(moment: datetime, now: datetime | None = None) -> str:
    """ "just now", "3 minutes ago", "2 days ago"... as of `now` (default: now)."""
    now = now or timezone.now()
    if (now - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment, now, depth=1)} ago"
