"""How a timeline scores its statuses by when they were posted, and reads them newest
first: the one place for score <-> time.

POSTED (profiles, the global timeline, lists, mentions, tags, likes) keeps the book's
scores, Unix seconds. Home timelines aren't scored: they are lists of status ids
(timeline.feeds.home_list). A status hash keeps its time in whole microseconds
(timeline.statuses.layout), as `microseconds` makes it."""

import math
from typing import Any

from socialsite.redis import Client, Pipe

MICROSECONDS = 1_000_000


def microseconds(posted: float) -> int:
    """`posted` (Unix seconds) in whole microseconds."""
    # Rounded half up (not to even) so that Lua and Python would agree, and exact:
    # doubles hold whole numbers past 2^53 only; microseconds now are ~2^50.
    return math.floor(posted * MICROSECONDS + 0.5)


class Scores:
    """A timeline's scores, the book's: a status's posted time in Unix seconds, newest
    highest (Redis's own order is oldest first)."""

    def score(self, posted: float | str) -> float:
        """The score of a status posted at `posted` (Unix seconds, as a number or text)."""
        return float(posted)

    def trim(self, size: int) -> tuple[int, int]:
        """The ranks ZREMRANGEBYRANK takes out to keep the newest `size` entries."""
        return (0, -size - 1)

    def newest(
        self, client: Client | Pipe, key: str, start: int, stop: int, *, withscores: bool = False
    ) -> Any:
        """The entries from `start` to `stop` (ranks from the newest, inclusive; -1 is the
        oldest), newest first, on a connection or a pipeline."""
        return client.zrange(key, start, stop, desc=True, withscores=withscores)

    def between(
        self,
        client: Client,
        key: str,
        num: int,
        *,
        older_than: float | None = None,
        newer_than: float | None = None,
        oldest_first: bool = False,
    ) -> list[str]:
        """Up to `num` entries strictly between two scores (None: no bound), newest first,
        or the oldest `num` of them, oldest first."""
        newest_end = "+inf" if older_than is None else f"({older_than}"
        oldest_end = "-inf" if newer_than is None else f"({newer_than}"
        ids: list[str]
        if oldest_first:
            ids = client.zrange(key, oldest_end, newest_end, byscore=True, offset=0, num=num)
        else:
            ids = client.zrange(
                key, newest_end, oldest_end, desc=True, byscore=True, offset=0, num=num
            )
        return ids


POSTED = Scores()
