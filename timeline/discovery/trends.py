"""Trending #tags for the home page: the dashboard's counts of the last hour
(discovery.activity, counted by the workers from the event stream), kept
settings.TRENDS_KEPT_SECONDS (a minute) in each process, so a home page reads them once a
minute, not at every view. Explore's trends (timeline.explore) are kept the same way, by
`Kept`."""

import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from django.conf import settings

from . import activity

TRENDS_SHOWN = 5

T = TypeVar("T")


class Kept(Generic[T]):
    """A value worked out at most once every settings.TRENDS_KEPT_SECONDS in this process."""

    def __init__(self, work_out: Callable[[], T]) -> None:
        self.work_out = work_out
        self.value: tuple[float, T] | None = None
        _all_kept.append(self)

    def get(self) -> T:
        now = time.monotonic()
        if self.value is None or now - self.value[0] >= settings.TRENDS_KEPT_SECONDS:
            self.value = (now, self.work_out())
        return self.value[1]


_all_kept: list["Kept[Any]"] = []

_tags: Kept[list[tuple[str, int]]] = Kept(
    lambda: activity.trending(TRENDS_SHOWN, kinds=("tags",))["tags"]
)


def trending_tags() -> list[tuple[str, int]]:
    """The TRENDS_SHOWN most used #tags of the last hour, with their counts, most used
    first: no round trip if this process read them in the last settings.TRENDS_KEPT_SECONDS."""
    return _tags.get()


def forget() -> None:
    """Drops every kept trend (the store was emptied: the tests' clean Redis)."""
    for kept in _all_kept:
        kept.value = None
