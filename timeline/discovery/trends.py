"""Trending #tags for the home page: the dashboard's counts of the last hour
(discovery.activity, counted by the workers from the event stream), kept TRENDS_KEPT_SECONDS
in each process, so a home page reads them once a minute, not at every view."""

import time

from . import activity

TRENDS_KEPT_SECONDS = 60
TRENDS_SHOWN = 5

# (read at, [(tag, uses), ...])
_kept: tuple[float, list[tuple[str, int]]] | None = None


def trending_tags() -> list[tuple[str, int]]:
    """The TRENDS_SHOWN most used #tags of the last hour, with their counts, most used
    first: no round trip if this process read them in the last TRENDS_KEPT_SECONDS."""
    global _kept
    now = time.monotonic()
    if _kept is None or now - _kept[0] >= TRENDS_KEPT_SECONDS:
        _kept = (now, activity.trending(TRENDS_SHOWN, kinds=("tags",))["tags"])
    return _kept[1]


def forget() -> None:
    """Drops the kept trends (the store was emptied: the tests' clean Redis)."""
    global _kept
    _kept = None
