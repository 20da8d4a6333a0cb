"""Consistency checks and repairs (`manage.py repair`) and the network's numbers
(`manage.py stats` and the admin dashboard, through socialsite.dashboard). Both walk
Redis with SCAN, HSCAN and ranges, never KEYS, so they can run beside live traffic."""

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from accounts import keys as account_keys
from socialsite.redis import get_redis
from socialsite.scripts import LuaScripts

from .. import keys
from ..feeds import home_list
from ..graph import following as following_sets
from ..graph import pieces
from ..reactions import marks_sync
from ..statuses.selectors import COUNT_FIELDS, exist
from . import activity

scripts = LuaScripts(__file__)

CHUNK = 1000

Progress = Callable[[str], None]


def chunks(items: Iterable, size: int = CHUNK) -> Iterator[list]:
    """`items` in lists of `size` (the last may be shorter)."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _ranges(conn, key: str, *, withscores: bool = False, home: bool = False) -> Iterator[list]:
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
    check: str  # "timelines", "follows", "lists", "likes", "marks" or "counters"
    key: str
    problem: str


@dataclass
class RepairReport:
    fixed: bool
    checked: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


def repair(*, fix: bool = False, progress: Progress = lambda _: None) -> RepairReport:
    """Checks every timeline (home, profile, global, list, mentions, tag, likes pages,
    replies) against existing statuses, that both sides of follows, list memberships and
    likes agree, the liked and reposted marks (reactions.marks), and the counters of
    users, statuses and lists against their sets; with `fix`, repairs what it finds, in
    that order (each fix can change what the next one counts).

    Suspects are read again just before they are reported, so an operation in flight
    (a status being stored, an unfollow between its two steps) isn't taken for damage."""
    report = RepairReport(fixed=fix)
    conn = get_redis()
    _check_timelines(conn, report, progress)
    for pairing in (FOLLOWS, MEMBERSHIPS, LIKES):
        _check_pairs(conn, pairing, report, progress)
    _check_marks(report, progress)
    _check_counters(conn, report, progress)
    return report


# Every sorted set of status ids: profile, list, mentions and tag timelines, the likes
# pages, and each status's replies (whose count the counter check then follows). Homes
# are lists of ids (feeds.home_list).
TIMELINE_PATTERNS = (
    keys.REPLIES_PATTERN,
    keys.PROFILE_TIMELINE_PATTERN,
    keys.LIST_TIMELINE_PATTERN,
    keys.MENTIONS_TIMELINE_PATTERN,
    keys.TAG_TIMELINE_PATTERN,
    keys.LIKES_PATTERN,
)


def _timeline_keys(conn) -> Iterator[tuple[str, bool]]:
    """Each timeline's key, and whether it is a home."""
    yield keys.GLOBAL_TIMELINE, False
    for pattern in TIMELINE_PATTERNS:
        yield from (
            (key, False) for key in conn.scan_iter(match=pattern, count=CHUNK, _type="ZSET")
        )
    homes = conn.scan_iter(match=keys.HOME_TIMELINE_PATTERN, count=CHUNK, _type="LIST")
    yield from ((key, True) for key in homes)


def _check_timelines(conn, report: RepairReport, progress: Progress) -> None:
    """Timeline entries whose status hash is gone (a retract job that never ran)."""
    # One pass over the status hashes makes a bitmap of the ids that exist, so each
    # timeline entry is checked in memory instead of by a round trip.
    newest = int(conn.get(keys.STATUS_ID_COUNTER) or 0)
    exists = bytearray(newest + 1)
    for key in conn.scan_iter(match=keys.STATUS_PATTERN, count=CHUNK):
        status_id = account_keys.hash_tag_id(key)
        if status_id <= newest:
            exists[status_id] = 1
    progress(f"timelines: {sum(exists)} statuses exist")
    suspects: list[tuple[str, bool, list[str]]] = []
    checked = 0
    for checked, (key, home) in enumerate(_timeline_keys(conn), start=1):
        # Ids newer than the bitmap are statuses posted since: not suspects.
        missing = {
            status_id: None
            for ids in _ranges(conn, key, home=home)
            for status_id in ids
            if int(status_id) <= newest and not exists[int(status_id)]
        }
        if missing:
            suspects.append((key, home, list(missing)))
        if checked % 10_000 == 0:
            progress(f"timelines: {checked} checked")
    report.checked["timelines"] = checked
    pipe = conn.pipeline(transaction=False)
    for key, home, listed in suspects:
        gone = [sid for sid, found in zip(listed, exist(conn, listed), strict=True) if not found]
        if not gone:
            continue
        report.findings.append(
            Finding("timelines", key, f"{len(gone)} deleted statuses listed: {_sample(gone)}")
        )
        if report.fixed and home:
            home_list.queue_remove(pipe, account_keys.hash_tag_id(key), gone)
        elif report.fixed:
            pipe.zrem(key, *gone)
    pipe.execute()  # empty unless fixing


@dataclass(frozen=True)
class Pairing:
    """A relation recorded twice, once in each side's slot, by a change made in two steps:
    `a_key(a)` lists b exactly when `b_key(b)` lists a. Of a pair recorded on one side
    only, the `truth` side ("a" or "b") is believed and the other side is made to agree:
    an entry only it has is dropped (`extra`), one it lacks is added back if b still
    exists (`missing`), and if b is gone the truth's entry is dropped (`gone`; None
    leaves it, as a b being deleted is in flight). The three say what was found, with
    {a} and {b} in them."""

    check: str  # Finding.check, and progress lines
    counted_as: str  # what report.checked counts
    a_pattern: str
    a_key: Callable[[int], str]
    b_pattern: str
    b_key: Callable[[int], str]
    b_hash: Callable[[int], str]  # b's own hash: whether b still exists
    truth: str
    extra: str
    missing: str
    gone: str | None
    # b's sets are followers, kept in pieces found by follow time (timeline.graph.pieces).
    b_in_pieces: bool = False
    # a's sets are following sets, kept in buckets by member past a size
    # (timeline.graph.following): a_pattern finds the buckets too.
    a_in_buckets: bool = False

    def queue_a_score(self, pipe, a: int, b: int) -> None:
        """Queues the read of b's score in a's set."""
        if self.a_in_buckets:
            following_sets.queue_score(pipe, a, b)
        else:
            pipe.zscore(self.a_key(a), b)

    def queue_b_score(self, pipe, b: int, a: int, a_score) -> None:
        """Queues the read of a's score in b's set (a's score for b finds its piece)."""
        if self.b_in_pieces:
            pieces.queue_score(pipe, b, a, "+inf" if a_score is None else a_score)
        else:
            pipe.zscore(self.b_key(b), a)

    def b_sets(self, conn, key: str) -> list[str]:
        """The keys that hold the b set whose (first) key is `key`."""
        if self.b_in_pieces:
            return pieces.piece_keys(conn, account_keys.hash_tag_id(key))
        return [key]

    def queue_change(self, pipe, side: str, owner: int, member: int, score, *, add: bool):
        """Queues adding `member` to (or dropping it from) `owner`'s set on `side`."""
        if side == "b" and self.b_in_pieces:
            change = pieces.queue_put_back if add else pieces.queue_drop
            change(pipe, owner, member, score)
        elif side == "a" and self.a_in_buckets:
            if add:
                following_sets.queue_write(pipe, owner, {member: score})
            else:
                following_sets.queue_forget(pipe, owner, [member])
        elif add:
            key = self.a_key(owner) if side == "a" else self.b_key(owner)
            pipe.zadd(key, {member: score}, nx=True)
        else:
            pipe.zrem(self.a_key(owner) if side == "a" else self.b_key(owner), member)


# The follower's own following set is the truth: it is what they see, and it decided
# what their home timeline holds.
FOLLOWS = Pairing(
    "follows",
    "follow edge ends",
    keys.FOLLOWING_PATTERN + "*",
    keys.following_key,
    keys.FOLLOWERS_PATTERN,
    keys.followers_key,
    keys.user_key,
    truth="a",
    extra="lists follower {a}, who doesn't follow them",
    missing="misses follower {a}, who follows them",
    gone="follows {b}, who doesn't exist",
    b_in_pieces=True,
    a_in_buckets=True,
)
# The list's members set is the truth: it is what the owner sees and what `members`
# counts. A "listed in" set missing the list would keep fan-out from it; one naming a
# list that doesn't back it would fill the list with a stranger's statuses.
MEMBERSHIPS = Pairing(
    "lists",
    "list membership ends",
    keys.LISTED_IN_PATTERN,
    keys.listed_in_key,
    keys.LIST_MEMBERS_PATTERN,
    keys.list_members_key,
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
    keys.LIKES_PATTERN,
    keys.likes_key,
    keys.LIKERS_PATTERN,
    keys.likers_key,
    keys.status_key,
    truth="b",
    extra="shows status {b}, whose likers don't list them",
    missing="misses status {b}, whose likers list them",
    gone="lists liker {a} of a deleted status",
)


def _check_pairs(conn, pairing: Pairing, report: RepairReport, progress: Progress) -> None:
    """Pairs recorded on one side only (a follow, list membership or like stopped between
    its two steps, or a deleted status whose likers were never walked), made to agree
    with the pairing's truth side."""
    pipe = conn.pipeline(transaction=False)
    for a, b, a_score, b_score, exists in _one_sided_pairs(conn, pairing, report, progress):
        sides = {"a": (pairing.a_key(a), a, b, a_score), "b": (pairing.b_key(b), b, a, b_score)}
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

    def a_in_b(pipe, a: int, b: int, a_score) -> None:
        pairing.queue_b_score(pipe, b, a, a_score)

    def b_in_a(pipe, b: int, a: int, _) -> None:
        pairing.queue_a_score(pipe, a, b)

    def a_sets(conn, key: str) -> list[str]:
        return [key]

    check = (counted, progress, pairing.check)
    for a, b in _one_sided(conn, pairing.a_pattern, a_sets, a_in_b, *check):
        suspects.add((a, b))
    for b, a in _one_sided(conn, pairing.b_pattern, pairing.b_sets, b_in_a, *check):
        suspects.add((a, b))
    report.checked[pairing.counted_as] = counted["edges"]
    pipe = conn.pipeline(transaction=False)
    ordered = sorted(suspects)
    for a, b in ordered:
        pairing.queue_a_score(pipe, a, b)
    a_scores = pipe.execute() if ordered else []
    for (a, b), a_score in zip(ordered, a_scores, strict=True):
        pairing.queue_b_score(pipe, b, a, a_score)
        pipe.exists(pairing.b_hash(b))
    found = zip(ordered, a_scores, chunks(pipe.execute() if ordered else [], 2), strict=True)
    for (a, b), a_score, (b_score, exists) in found:
        if (a_score is None) != (b_score is None):
            yield a, b, a_score, b_score, bool(exists)


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
    (`queue_back(pipe, owner, member, score)` queues that read)."""
    for key in conn.scan_iter(match=pattern, count=CHUNK, _type="ZSET"):
        owner = account_keys.hash_tag_id(key)
        held = (_ranges(conn, k, withscores=True) for k in sets(conn, key))
        for members in itertools.chain.from_iterable(held):
            pipe = conn.pipeline(transaction=False)
            for member, score in members:
                queue_back(pipe, owner, int(member), score)
            for (member, _), back in zip(members, pipe.execute(), strict=True):
                if back is None:
                    yield owner, int(member)
            counted["edges"] += len(members)
            if counted["edges"] % 100_000 < len(members):
                progress(f"{label}: {counted['edges']} edge ends checked")


def _check_marks(report: RepairReport, progress: Progress) -> None:
    """Liked and reposted marks that differ from the likes and reposts they mark (after
    the likes check, so they follow the likes pages as it left them)."""
    found = marks_sync.check_marks(fix=report.fixed, progress=progress)
    report.checked.update(found.checked)
    report.findings.extend(Finding("marks", key, problem) for key, problem in found.findings)


@dataclass(frozen=True)
class Counted:
    """Hashes whose counters each count a set in the hash's slot."""

    name: str  # what report.checked counts them as
    pattern: str  # SCAN pattern of the hashes
    fields: tuple[str, ...]  # the counters...
    sets: tuple[Callable[[int], str], ...]  # ...and, by the hash's id, the sets they count
    # The field that counts a following set, kept in buckets past a size (graph.following).
    following_field: str = ""


COUNTED = (
    Counted(
        "users",
        account_keys.USER_KEY_PATTERN,
        ("followers", "following", "posts"),
        (keys.followers_key, keys.following_key, keys.profile_timeline_key),
        following_field="following",
    ),
    Counted(
        "statuses",
        keys.STATUS_PATTERN,
        COUNT_FIELDS,  # replies, reposts, likes
        (keys.replies_key, keys.reposts_key, keys.likers_key),
    ),
    Counted("lists", keys.LIST_PATTERN, ("members",), (keys.list_members_key,)),
)


def _check_counters(conn, report: RepairReport, progress: Progress) -> None:
    """Counters (a user's follows and posts, a status's replies, reposts and likes, a
    list's members) that differ from the size of the set they count."""
    for counted in COUNTED:
        hashes = 0
        scan = conn.scan_iter(match=counted.pattern, count=CHUNK, _type="HASH")
        for hash_keys in chunks(scan):
            _check_counter_chunk(conn, report, counted, hash_keys)
            hashes += len(hash_keys)
            if hashes % 10_000 < len(hash_keys):
                progress(f"counters: {hashes} {counted.name} checked")
        report.checked[counted.name] = hashes


def _check_counter_chunk(conn, report: RepairReport, counted: Counted, hash_keys: list) -> None:
    pipe = conn.pipeline(transaction=False)
    for key in hash_keys:
        owner = account_keys.hash_tag_id(key)
        pipe.hmget(key, *counted.fields)
        for set_key in counted.sets:
            pipe.zcard(set_key(owner))
    suspects = [
        key
        for key, (counters, *sizes) in zip(
            hash_keys, chunks(pipe.execute(), 1 + len(counted.sets)), strict=True
        )
        if any(int(c or 0) != size for c, size in zip(counters, sizes, strict=True))
    ]
    # Read again, and fixed, in each hash's slot: a change in flight isn't damage.
    for key in suspects:
        owner = account_keys.hash_tag_id(key)
        set_keys = [set_key(owner) for set_key in counted.sets]
        flag = "1" if report.fixed else ""
        scripts.run(
            pipe,
            "check_counters",
            [key, *set_keys],
            [flag, counted.following_field, following_sets.BUCKETS, *counted.fields],
        )
    for key, wrong in zip(suspects, pipe.execute(), strict=True):
        if wrong:
            problems = [
                f"{name} {counter} (the set has {size})" for name, counter, size in chunks(wrong, 3)
            ]
            report.findings.append(Finding("counters", key, ", ".join(problems)))


def _sample(items: list, shown: int = 5) -> str:
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(map(str, items[:shown])) + more


def network_totals() -> dict[str, int]:
    """Users, statuses and follows, summed from the profile counters (one HSCAN pass)."""
    conn = get_redis()
    totals = {"users": 0, "statuses": 0, "follows": 0}
    logins = conn.hscan_iter(account_keys.LOGIN_INDEX, count=CHUNK)
    for chunk in chunks(uid for _, uid in logins):
        pipe = conn.pipeline(transaction=False)
        for uid in chunk:
            pipe.hmget(account_keys.user_key(uid), "posts", "following")
        for posts, following in pipe.execute():
            totals["users"] += 1
            totals["statuses"] += int(posts or 0)
            totals["follows"] += int(following or 0)
    totals["suspended"] = conn.scard(account_keys.SUSPENDED_USERS)
    return totals


def network_figures() -> dict:
    """The timeline's figures for the operators' dashboard (socialsite.dashboard)."""
    return {
        **network_totals(),
        "posts_per_hour": activity.posts_per_hour(),
        **activity.trending(),
    }
