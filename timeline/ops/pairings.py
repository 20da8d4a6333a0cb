"""Relations recorded twice, once in each side's slot (follows, list memberships, likes),
checked end against end by the repair (ops.maintenance) and made to agree with the side
believed. Each end is walked, read and mended through its owner's interface: a plain
sorted set here, the follow sets' layouts through follow_sets.ends."""

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from accounts import keys as account_keys
from socialsite.redis import Batch, Pipe, Reply

from .. import keys
from ..follow_sets import ends
from .report import CHUNK, Finding, Progress, RepairReport, ranges


class End(Protocol):
    """One end's sets, as the check walks and mends them (SortedSetEnd; follow_sets.ends)."""

    # Read-only: a frozen dataclass (SortedSetEnd) holds it as well as a class does.
    @property
    def pattern(self) -> str: ...

    def key(self, owner: int) -> str: ...

    def set_keys(self, conn, key: str) -> list[str]: ...

    def queue_score(self, pipe: Pipe, owner: int, member: int, hint) -> Reply: ...

    def queue_add(self, pipe, owner: int, member: int, score) -> None: ...

    def queue_remove(self, pipe, owner: int, member: int, score) -> None: ...


@dataclass(frozen=True)
class SortedSetEnd:
    """An end whose sets are each one sorted set, member -> score (`key(owner)`)."""

    pattern: str
    key: Callable[[int], str]

    def set_keys(self, conn, key: str) -> list[str]:
        """The keys that hold the set whose key is `key`: itself."""
        return [key]

    def queue_score(self, pipe: Pipe, owner: int, member: int, hint) -> Reply:
        """Queues on a Batch the read of `member`'s score in `owner`'s set (`hint`
        unused): its handle."""
        return pipe.zscore(self.key(owner), member)

    def queue_add(self, pipe, owner: int, member: int, score) -> None:
        """Queues adding `member` at `score` to `owner`'s set, unless it is there."""
        pipe.zadd(self.key(owner), {member: score}, nx=True)

    def queue_remove(self, pipe, owner: int, member: int, score) -> None:
        """Queues taking `member` out of `owner`'s set."""
        pipe.zrem(self.key(owner), member)


@dataclass(frozen=True)
class Pairing:
    """A relation recorded twice, once in each side's slot, by a change made in two steps:
    `a`'s set of an a lists b exactly when `b`'s set of b lists a. Of a pair recorded on
    one side only, the `truth` side ("a" or "b") is believed and the other side is made
    to agree: an entry only it has is dropped (`extra`), one it lacks is added back if b
    still exists (`missing`), and if b is gone the truth's entry is dropped (`gone`; None
    leaves it, as a b being deleted is in flight). The three say what was found, with
    {a} and {b} in them."""

    check: str  # Finding.check, and progress lines
    counted_as: str  # what report.checked counts
    a: End
    b: End
    b_hash: Callable[[int], str]  # b's own hash: whether b still exists
    truth: str
    extra: str
    missing: str
    gone: str | None

    def queue_a_score(self, pipe: Pipe, a: int, b: int) -> Reply:
        """Queues on a Batch the read of b's score in a's set: its handle."""
        return self.a.queue_score(pipe, a, b, None)

    def queue_b_score(self, pipe: Pipe, b: int, a: int, a_score) -> Reply:
        """Queues on a Batch the read of a's score in b's set (a's score for b: where to
        look): its handle."""
        return self.b.queue_score(pipe, b, a, a_score)

    def queue_change(self, pipe, side: str, owner: int, member: int, score, *, add: bool):
        """Queues adding `member` to (or dropping it from) `owner`'s set on `side`."""
        end = self.a if side == "a" else self.b
        (end.queue_add if add else end.queue_remove)(pipe, owner, member, score)


# The follower's own following set is the truth: it is what they see, and it decided
# what their home timeline holds.
FOLLOWS = Pairing(
    "follows",
    "follow edge ends",
    ends.FOLLOWING,
    ends.FOLLOWERS,
    keys.user_key,
    truth="a",
    extra="lists follower {a}, who doesn't follow them",
    missing="misses follower {a}, who follows them",
    gone="follows {b}, who doesn't exist",
)
# The list's members set is the truth: it is what the owner sees and what `members`
# counts. A "listed in" set missing the list would keep fan-out from it; one naming a
# list that doesn't back it would fill the list with a stranger's statuses.
MEMBERSHIPS = Pairing(
    "lists",
    "list membership ends",
    SortedSetEnd(keys.LISTED_IN_PATTERN, keys.listed_in_key),
    SortedSetEnd(keys.LIST_MEMBERS_PATTERN, keys.list_members_key),
    keys.list_key,
    truth="b",
    extra="names list {b}, which doesn't have them as a member",
    missing="misses list {b}, which has them as a member",
    gone=None,
)
# The status's likers set is the truth: `likes` counts it, and it decides whether a like
# can be given or taken back. A deleted status's likers go.
LIKES = Pairing(
    "likes",
    "like ends",
    SortedSetEnd(keys.LIKES_PATTERN, keys.likes_key),
    SortedSetEnd(keys.LIKERS_PATTERN, keys.likers_key),
    keys.status_key,
    truth="b",
    extra="shows status {b}, whose likers don't list them",
    missing="misses status {b}, whose likers list them",
    gone="lists liker {a} of a deleted status",
)
# Keep: a user's bookmarks are the truth (the page they see); a status's bookmarkers
# only tell its deletion whose bookmarks to clear. A deleted status's bookmarks go.
BOOKMARKS = Pairing(
    "keeps",
    "bookmark ends",
    SortedSetEnd(keys.BOOKMARKS_PATTERN, keys.bookmarks_key),
    SortedSetEnd(keys.BOOKMARKERS_PATTERN, keys.bookmarkers_key),
    keys.status_key,
    truth="a",
    extra="lists bookmarker {a}, who hasn't bookmarked it",
    missing="misses bookmarker {a}",
    gone="bookmarks status {b}, which is gone",
)


def check_pairs(conn, pairing: Pairing, report: RepairReport, progress: Progress) -> None:
    """Pairs recorded on one side only (a follow, list membership or like stopped between
    its two steps, or a deleted status whose likers were never walked), made to agree
    with the pairing's truth side."""
    pipe = conn.pipeline(transaction=False)
    for a, b, a_score, b_score, exists in _one_sided_pairs(conn, pairing, report, progress):
        sides = {"a": (pairing.a.key(a), a, b, a_score), "b": (pairing.b.key(b), b, a, b_score)}
        truth = pairing.truth
        copy = "b" if truth == "a" else "a"
        truth_key, truth_owner, truth_member, truth_score = sides[truth]
        copy_key, copy_owner, copy_member, copy_score = sides[copy]
        if copy_score is not None:
            found, key = pairing.extra, copy_key
            pairing.queue_change(pipe, copy, copy_owner, copy_member, copy_score, add=False)
        elif exists:
            found, key = pairing.missing, copy_key
            pairing.queue_change(pipe, copy, copy_owner, copy_member, truth_score, add=True)
        elif pairing.gone:
            found, key = pairing.gone, truth_key
            pairing.queue_change(pipe, truth, truth_owner, truth_member, truth_score, add=False)
        else:
            continue
        report.findings.append(Finding(pairing.check, key, found.format(a=a, b=b)))
    if report.fixed:
        pipe.execute()


def _one_sided_pairs(
    conn, pairing: Pairing, report: RepairReport, progress: Progress
) -> Iterator[tuple[int, int, float | None, float | None, bool]]:
    """Pairs recorded on one side only, read again (so a change in flight between its two
    steps when the sets were walked is whole by now): (a, b, a's score for b, b's score
    for a, whether b exists)."""
    suspects: set[tuple[int, int]] = set()
    counted = {"edges": 0}

    def a_in_b(pipe: Pipe, a: int, b: int, a_score) -> Reply:
        return pairing.queue_b_score(pipe, b, a, a_score)

    def b_in_a(pipe: Pipe, b: int, a: int, _) -> Reply:
        return pairing.queue_a_score(pipe, a, b)

    check = (counted, progress, pairing.check)
    for a, b in _one_sided(conn, pairing.a.pattern, pairing.a.set_keys, a_in_b, *check):
        suspects.add((a, b))
    for b, a in _one_sided(conn, pairing.b.pattern, pairing.b.set_keys, b_in_a, *check):
        suspects.add((a, b))
    report.checked[pairing.counted_as] = counted["edges"]
    if not suspects:
        return
    ordered = sorted(suspects)
    reads = Batch(conn)
    a_scores = [pairing.queue_a_score(reads, a, b) for a, b in ordered]
    reads.execute()
    backs = [
        (pairing.queue_b_score(reads, b, a, a_score.value), reads.exists(pairing.b_hash(b)))
        for (a, b), a_score in zip(ordered, a_scores, strict=True)
    ]
    reads.execute()
    for (a, b), a_score, (b_score, exists) in zip(ordered, a_scores, backs, strict=True):
        if (a_score.value is None) != (b_score.value is None):
            yield a, b, a_score.value, b_score.value, bool(exists.value)


def _one_sided(
    conn,
    pattern: str,
    sets: Callable,
    queue_back: Callable,
    counted: dict,
    progress: Progress,
    label: str,
) -> Iterator:
    """(owner, member) for each member of the sets of each key matching `pattern`
    (`sets(conn, key)`: the keys that hold it) whose own set doesn't list the owner
    (`queue_back(batch, owner, member, score)` queues that read: its handle)."""
    for key in conn.scan_iter(match=pattern, count=CHUNK, _type="ZSET"):
        owner = account_keys.hash_tag_id(key)
        held = (ranges(conn, k, withscores=True) for k in sets(conn, key))
        for members in itertools.chain.from_iterable(held):
            reads = Batch(conn)
            backs = [
                (member, queue_back(reads, owner, int(member), score)) for member, score in members
            ]
            reads.execute()
            for member, back in backs:
                if back.value is None:
                    yield owner, int(member)
            counted["edges"] += len(members)
            if counted["edges"] % 100_000 < len(members):
                progress(f"{label}: {counted['edges']} edge ends checked")
