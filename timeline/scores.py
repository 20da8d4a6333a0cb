"""How a timeline scores its statuses by when they were posted, and reads them newest
first: the one place for score <-> time.

HOME (home timelines) is scored newest first, as negated whole microseconds. Fan-out
makes a home the most written key of the site (one ZADD a follower a post), and Redis
pays for where a new status goes: with the book's scores (Unix seconds, newest highest)
every ZADD into a full home (a skiplist) walks every level to the list's end, and into
a small one (a ziplist) parses every entry's 17-digit score to find the end. Newest
first, the new status goes at the head; as an integer, a compact home holds it as one.
Redis keeps ties (two statuses of one microsecond) in id order, as text.

POSTED (profiles, the global timeline, lists, mentions, tags, likes) keeps the book's
scores: each gets one ZADD a post (a list one a post of each member), so the layout
costs them little, and their keys are older than homes' and not rebuilt by anything."""

import math
from collections.abc import Callable
from dataclasses import dataclass

MICROSECONDS = 1_000_000


def microseconds(posted: float) -> int:
    """`posted` (Unix seconds) in whole microseconds."""
    # Rounded half up (not to even) so that Lua and Python would agree, and exact:
    # doubles hold whole numbers past 2^53 only; microseconds now are ~2^50.
    return math.floor(posted * MICROSECONDS + 0.5)


def _negated_microseconds(posted: float) -> int:
    return -microseconds(posted)


@dataclass(frozen=True)
class Scores:
    """A timeline's scores: `encode` makes one from a status's posted time (Unix seconds),
    `decode` the time back (to the microsecond for HOME), and `newest_first` says
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

    @property
    def rank_command(self) -> str:
        """The command giving an entry's place from the newest (0), for scripts."""
        return "ZRANK" if self.newest_first else "ZREVRANK"

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


HOME = Scores(_negated_microseconds, lambda score: -score / MICROSECONDS, newest_first=True)
POSTED = Scores(float, float, newest_first=False)
