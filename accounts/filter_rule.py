"""Filters' one rule (accounts.filters keeps them): what a status matches. A keyword
marked whole-word matches a text holding all its words, by the site's word rule (as
the streaming API's track filter and the muted words always matched); another matches
a text containing it anywhere. A status filter matches that status, and its reposts.
The text is a status's content warning and message."""

import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from socialsite.text import words

Filter = dict[str, Any]


@functools.lru_cache(maxsize=8192)
def keyword_words(keyword: str) -> frozenset[str]:
    """A keyword's words (the site's word rule), worked out once a process."""
    return words(keyword)


def is_active(found: Filter, now: float | None = None) -> bool:
    """Whether a filter hasn't ended."""
    ends = found.get("expires_at")
    return ends is None or float(ends) > (time.time() if now is None else now)


@dataclass(frozen=True, slots=True)
class HomeHiding:
    """What of a viewer's filters hides statuses from their home: whole-word phrases (as
    word sets), parts of text, and status ids."""

    phrases: tuple[frozenset[str], ...] = ()
    parts: tuple[str, ...] = ()
    status_ids: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.phrases or self.parts or self.status_ids)


def hidden_in_home(filters: list[Filter], now: float | None = None) -> HomeHiding:
    """What `filters` (active ones, for home, that hide) hide from home."""
    phrases: list[frozenset[str]] = []
    parts: list[str] = []
    status_ids: set[str] = set()
    for found in filters:
        if found["filter_action"] != "hide" or "home" not in found["context"]:
            continue
        if not is_active(found, now):
            continue
        for keyword in found["keywords"]:
            if keyword["whole_word"]:
                phrases.append(keyword_words(keyword["keyword"]))
            else:
                parts.append(keyword["keyword"].casefold())
        status_ids.update(each["status_id"] for each in found["statuses"])
    return HomeHiding(tuple(p for p in phrases if p), tuple(parts), frozenset(status_ids))


def status_text(status: Mapping[str, Any]) -> str:
    return f"{status.get('spoiler_text') or ''}\n{status.get('message') or ''}"


def keyword_matches(keyword: dict, text: str, present: frozenset[str]) -> bool:
    """The one word rule: a whole-word keyword matches a text holding all its words (as
    the streaming API's track filter does); another, a text containing it."""
    if keyword["whole_word"]:
        wanted = keyword_words(keyword["keyword"])
        return bool(wanted) and wanted <= present
    return keyword["keyword"].casefold() in text.casefold()


def hides(status: Mapping[str, Any], hiding: HomeHiding) -> bool:
    """Whether `hiding` hides `status` (a repost is judged by what it carries)."""
    if str(status.get("id")) in hiding.status_ids:
        return True
    text = status_text(status)
    present = words(text)
    if any(phrase <= present for phrase in hiding.phrases):
        return True
    folded = text.casefold()
    return any(part in folded for part in hiding.parts)


def matches(
    status: Mapping[str, Any], filters: list[Filter], now: float | None = None
) -> list[dict]:
    """Mastodon's FilterResults for `status` (its original's content, for a repost):
    each active filter it matches, with the keywords and status ids that matched."""
    shown = status.get("original") or status
    text = status_text(shown)
    present = words(text)
    ids = {str(shown.get("id")), str(status.get("id"))}
    results = []
    for found in filters:
        if not is_active(found, now):
            continue
        keywords = [k["keyword"] for k in found["keywords"] if keyword_matches(k, text, present)]
        statuses = [s["status_id"] for s in found["statuses"] if s["status_id"] in ids]
        if keywords or statuses:
            results.append(
                {"filter": found, "keyword_matches": keywords, "status_matches": statuses}
            )
    return results
