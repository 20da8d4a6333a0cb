"""Showing statuses: message text with @mentions, #tags and links marked up, and times."""

from datetime import UTC, datetime

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince

from timeline.text import LINK, MENTION, TAG

register = template.Library()


def _link(match) -> str:
    return format_html('<a href="{0}" rel="nofollow noopener noreferrer">{0}</a>', match[0])


def _mention(match) -> str:
    url = reverse("profile", args=[match[1]])
    return format_html('<a class="mention" href="{}">@{}</a>', url, match[1])


def _tag(match) -> str:
    return format_html('<span class="tag">{}</span>', match[0])


MARKUP = ((LINK, _link), (MENTION, _mention), (TAG, _tag))


@register.filter
def linkify(message: str) -> SafeString:
    """The message, HTML-escaped, with links and @mentions clickable and #tags marked."""
    found = sorted(
        ((match.start(), match, render) for pattern, render in MARKUP
         for match in pattern.finditer(message)),
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
    return mark_safe("".join(parts))


@register.filter
def posted_at(posted: float) -> datetime:
    """A status's `posted` (Unix seconds) as an aware datetime."""
    return datetime.fromtimestamp(float(posted), tz=UTC)


@register.filter
def ago(moment: datetime) -> str:
    """ "just now", "3 minutes ago", "2 days ago"..."""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment, depth=1)} ago"
