"""Showing statuses: message text with @mentions, #tags and links linked, and times.
Plain functions, given to the pages' Jinja2 environment as filters (settings.TEMPLATES);
`posted_at` is a Django filter too, for the admin."""

import re
from datetime import UTC, datetime

from django.utils import timezone
from django.utils.timesince import timesince
from markupsafe import Markup, escape

from socialsite.links import url
from timeline.statuses.records import Status

from .text import LINK, MENTION, TAG

# markupsafe rather than Django's escape/format_html: those check every argument for
# lazy strings, and a card's text cost twice as much through them.
_LINK = Markup('<a href="{0}" rel="nofollow noopener noreferrer">{0}</a>')
_MENTION = Markup('<a class="mention" href="{}">@{}</a>')
_TAG = Markup('<a class="tag" href="{}">{}</a>')


def _link(match: re.Match[str]) -> str:
    return _LINK.format(match[0])


def _mention(match: re.Match[str]) -> str:
    return _MENTION.format(url("profile", match[1]), match[1])


def _tag(match: re.Match[str]) -> str:
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


def status_text(status: Status) -> Markup:
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
