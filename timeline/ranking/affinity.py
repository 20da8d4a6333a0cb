"""A reader's affinity with the authors they engage with: the one place that knows how
it is stored (keys.affinity_key, in the reader's slot), written and read.

Each like, reply, repost (written by the actions' own pipelines: reactions, posting)
and profile visit (graph's profile page, in its first round trip) adds to a decayed
count per author and kind, one sorted-set member "<author>:<kind>". Decay costs no
write: an action at time t adds 2^((t - EPOCH) / HALF_LIFE) rather than 1, so every
stored value carries its own age, and a read divides them all by 2^((now - EPOCH) /
HALF_LIFE): the count as if each action had halved every HALF_LIFE since. A double
holds 2^1023, some 39 years of HALF_LIFE (two weeks) past EPOCH. The set keeps its
KEPT biggest members (the weakest go as new ones come in).

The kinds are counted as they are; how much each weighs is read with the weights at
scoring time (settings.TOP_WEIGHTS, ranking.scores), so a changed weight applies at once."""

import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from socialsite.redis import Pipe, Reply

from .. import keys
from ..statuses.records import Status

LIKE, REPLY, REPOST, VISIT = "like", "reply", "repost", "visit"
KINDS = (LIKE, REPLY, REPOST, VISIT)
# Fixed: stored values are scaled from it (changing it would rescale every stored set).
EPOCH = 1_767_225_600  # 2026-01-01 UTC
HALF_LIFE = 14 * 86_400
# Members kept per reader (authors x kinds): a listpack up to zset-max-listpack-entries.
KEPT = 512


def weight_at(moment: float) -> float:
    """What one action at `moment` (Unix seconds) adds: 2^((moment - EPOCH) / HALF_LIFE)."""
    return math.pow(2.0, (moment - EPOCH) / HALF_LIFE)


def queue_engaged(client: Pipe, reader: int, author: int, kind: str, now: float) -> None:
    """Queues (on a pipeline of the reader's action) that `reader` engaged with `author`
    once as `kind` at `now`; nothing for their own statuses or profile."""
    if int(reader) == int(author):
        return
    key = keys.affinity_key(reader)
    client.zincrby(key, weight_at(now), f"{int(author)}:{kind}")
    client.zremrangebyrank(key, 0, -KEPT - 1)


def queue_for_new_status(client: Pipe, status: Status) -> None:
    """Queues the affinity a new status shows its author has: with the author it replies
    to, or the author of the status it reposts."""
    posted = float(status["posted"])
    if status.get("repost_of_uid"):
        queue_engaged(client, status["uid"], int(status["repost_of_uid"]), REPOST, posted)
    elif status.get("in_reply_to_uid"):
        queue_engaged(client, status["uid"], int(status["in_reply_to_uid"]), REPLY, posted)


@dataclass
class Affinity:
    """A reader's decayed counts by author and kind, as of one moment."""

    counts: dict[int, dict[str, float]] = field(default_factory=dict)

    def of(self, author: int, weights: dict[str, float]) -> float:
        """The reader's affinity with `author`: their counts, weighted by kind."""
        counts = self.counts.get(author)
        if not counts:
            return 0.0
        return sum(weights.get(kind, 0.0) * count for kind, count in counts.items())

    def strongest(self, author: int, weights: dict[str, float]) -> str | None:
        """The kind that weighs most in the reader's affinity with `author`, if any."""
        counts = self.counts.get(author)
        if not counts:
            return None
        return max(counts, key=lambda kind: weights.get(kind, 0.0) * counts[kind])


@dataclass(frozen=True, slots=True)
class AffinityRead:
    """The read `queue_read` queued."""

    entries: Reply

    def affinity(self, now: float) -> Affinity:
        """The counts read, decayed to `now`."""
        return decode(self.entries.value, now)


def queue_read(pipe: Pipe, reader: int) -> AffinityRead:
    """Queues the read of `reader`'s affinity (one command in their slot)."""
    return AffinityRead(pipe.zrange(keys.affinity_key(reader), 0, -1, withscores=True))


def decode(entries: Any, now: float) -> Affinity:
    """An Affinity from a ZRANGE WITHSCORES reply (pairs, as RESP3 or redis-py give them)."""
    scale = weight_at(now)
    counts: dict[int, dict[str, float]] = defaultdict(dict)
    for member, value in entries:
        member = member.decode() if isinstance(member, bytes) else member
        author, _, kind = member.partition(":")
        counts[int(author)][kind] = float(value) / scale
    return Affinity(dict(counts))


def affinity_of(conn: Any, reader: int, now: float | None = None) -> Affinity:
    """`reader`'s affinity now (1 round trip): for tests and checks."""
    return decode(
        conn.zrange(keys.affinity_key(reader), 0, -1, withscores=True), now or time.time()
    )
