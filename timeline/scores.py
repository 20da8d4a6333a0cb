"""How a timeline scores its statuses by when they were posted, and reads them newest
first: the one place for score <-> time.

POSTED (profiles, the global timeline, lists, mentions, tags, likes) keeps the book's
scores, Unix seconds. Home timelines aren't scored: they are lists of status ids
(timeline.feeds.home_list). A status hash keeps its time in whole microseconds
(timeline.statuses.layout), as `microseconds` makes it."""

import math
from collections.abc import Callable
from dataclasses import dataclass

MICROSECONDS = 1_000_000


def microseconds(posted: float) -> int:
    """`posted` (Unix seconds) in whole microseconds."""
    # Rounded half up (not to even) so that Lua and Python would agree, and exact:
    # doubles hold whole numbers past 2^53 only; microseconds now are ~2^50.
    return math.floor(posted * MICROSECONDS + 0.5)


@dataclass(frozen=True)
class Scores:
    """A timeline's scores: `encode` makes one from a status's posted time (Unix seconds),
    `decode` the time back, and `newest_first` says
    whether Redis's own (ascending) order is newest first."""

    encode: Callable[[float], float | int]
    decode: Callable[[float], float]
    newest_first: bool

    def score(self, posted: float | str) -> float | int:
        """The score of a status posted at `posted` (Unix seconds, as a number or text)."""
        return self.encode(float(posted))

    def posted(self, score: float | str) -> float:
        """When a status with score `score` was posted (Unix seconds)."""
        return self.decode(float(score))

    def trim(self, size: int) -> tuple[int, int]:
        """The ranks ZREMRANGEBYRANK takes out to keep the newest `size` entries."""
        return (size, -1) if self.newest_first else (0, -size - 1)

    def newest(self, client, key: str, start: int, stop: int, *, withscores: bool = False):
        """The entries from `start` to `stop` (ranks from the newest, inclusive; -1 is the
        oldest), newest first, on a connection or a pipeline."""
        return client.zrange(key, start, stop, desc=not self.newest_first, withscores=withscores)

    def between(
        self,
        client,
        key: str,
        num: int,
        *,
        older_than: float | None = None,
        newer_than: float | None = None,
        oldest_first: bool = False,
    ) -> list:
        """Up to `num` entries strictly between two scores (None: no bound), newest first,
        or the oldest `num` of them, oldest first."""
        # Entries older than X end, on their newest side, just before X.
        newest_end = "-inf" if self.newest_first else "+inf"
        oldest_end = "+inf" if self.newest_first else "-inf"
        if older_than is not None:
            newest_end = f"({older_than}"
        if newer_than is not None:
            oldest_end = f"({newer_than}"
        low, high = (newest_end, oldest_end) if self.newest_first else (oldest_end, newest_end)
        descending = self.newest_first == oldest_first
        if descending:
            low, high = high, low
        return client.zrange(key, low, high, desc=descending, byscore=True, offset=0, num=num)


POSTED = Scores(float, float, newest_first=False)
