"""What a repair finds and reports (Finding, RepairReport), and how it walks Redis: keys'
members a CHUNK at a time, by rank, never all at once."""

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from socialsite.redis import Client

CHUNK = 1000

Progress = Callable[[str], None]


def chunks(items: Iterable[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    """`items` in lists of `size` (the last may be shorter)."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def ranges(
    conn: Client, key: str, *, withscores: bool = False, home: bool = False
) -> Iterator[list[Any]]:
    """A sorted set's members (or (member, score) pairs; a home's ids: a list), CHUNK at a
    time, by rank."""
    for start in itertools.count(0, CHUNK):
        stop = start + CHUNK - 1
        if home:
            members = conn.lrange(key, start, stop)
        else:
            members = conn.zrange(key, start, stop, withscores=withscores)
        if not members:
            return
        yield members


@dataclass
class Finding:
    check: str  # "timelines", "follows", "lists", "likes", "marks", "polls", "keeps" or "counters"
    key: str
    problem: str


@dataclass
class RepairReport:
    fixed: bool
    checked: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
