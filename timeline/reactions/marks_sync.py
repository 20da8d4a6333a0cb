"""Building and checking every user's marks (statuses.marks) against what they mark:
`liked:{uid}` against `likes:{uid}` (one script in the user's slot), and
`reposted:{uid}` against the originals' `reposts:{id}` (other slots: both sides are
walked, and each pair found on one side only is read again before it is reported or
fixed, so a repost or an undo between its steps isn't taken for damage).

Data migration 0005 runs it once over data from before the marks; `manage.py repair` runs
it every time. Walks Redis with SCAN (every primary of a cluster), CHUNK keys at a time."""

from collections.abc import Callable
from dataclasses import dataclass, field

from accounts.keys import hash_tag_id
from socialsite.redis import Batch, get_redis, scan_batches

from .. import keys
from . import scripts

CHUNK = 1000

Progress = Callable[[str], None]


@dataclass
class MarksCheck:
    """What a walk of the marks checked (liked sets, repost claims and marks) and what it
    found, as (key, problem)."""

    checked: dict[str, int] = field(default_factory=dict)
    findings: list[tuple[str, str]] = field(default_factory=list)


def check_marks(*, fix: bool, progress: Progress = lambda _: None) -> MarksCheck:
    """Every liked and reposted mark that differs from the like or repost it marks (and,
    with `fix`, made to agree with it)."""
    conn = get_redis()
    found = MarksCheck()
    _check_liked(conn, found, fix)
    progress(f"marks: {found.checked['liked sets']} liked sets checked")
    _check_reposted(conn, found, fix)
    progress(f"marks: {found.checked['repost claims']} repost claims checked")
    return found


def _check_liked(conn, found: MarksCheck, fix: bool) -> None:
    found.checked["liked sets"] = 0

    def sync(uids: list[int]) -> None:
        pipe = conn.pipeline(transaction=False)
        for uid in uids:
            scripts.sync_liked(
                pipe, likes_key=keys.likes_key(uid), liked_key=keys.liked_key(uid), fix=fix
            )
        for uid, (missing, extra) in zip(uids, pipe.execute() if uids else [], strict=True):
            if missing:
                found.findings.append((keys.liked_key(uid), f"misses {missing} liked statuses"))
            if extra:
                found.findings.append((keys.liked_key(uid), f"marks {extra} statuses not liked"))
        found.checked["liked sets"] += len(uids)

    for names in scan_batches(conn, keys.LIKES_PATTERN, "ZSET", CHUNK):
        sync([hash_tag_id(name) for name in names])
    # Marks left with no likes page at all (the sets above were checked already).
    for names in scan_batches(conn, keys.LIKED_PATTERN, "SET", CHUNK):
        pipe = conn.pipeline(transaction=False)
        uids = [hash_tag_id(name) for name in names]
        for uid in uids:
            pipe.exists(keys.likes_key(uid))
        sync([uid for uid, paged in zip(uids, pipe.execute(), strict=True) if not paged])


def _check_reposted(conn, found: MarksCheck, fix: bool) -> None:
    found.checked["repost claims"] = found.checked["repost marks"] = 0
    # Claims (reposter, original) with no mark.
    for names in scan_batches(conn, keys.REPOSTS_PATTERN, "ZSET", CHUNK):
        pipe = conn.pipeline(transaction=False)
        for name in names:
            pipe.zrange(name, 0, -1)
        pairs = [
            (int(uid), hash_tag_id(name))
            for name, reposters in zip(names, pipe.execute(), strict=True)
            for uid in reposters
        ]
        for uid, status_id in pairs:
            pipe.sismember(keys.reposted_key(uid), status_id)
        marked = pipe.execute() if pairs else []
        _settle(conn, [p for p, m in zip(pairs, marked, strict=True) if not m], found, fix)
        found.checked["repost claims"] += len(pairs)
    # Marks with no claim.
    for names in scan_batches(conn, keys.REPOSTED_PATTERN, "SET", CHUNK):
        pipe = conn.pipeline(transaction=False)
        for name in names:
            pipe.smembers(name)
        pairs = [
            (hash_tag_id(name), int(status_id))
            for name, status_ids in zip(names, pipe.execute(), strict=True)
            for status_id in status_ids
        ]
        for uid, status_id in pairs:
            pipe.zscore(keys.reposts_key(status_id), uid)
        claims = pipe.execute() if pairs else []
        one_sided = [p for p, c in zip(pairs, claims, strict=True) if c is None]
        _settle(conn, one_sided, found, fix)
        found.checked["repost marks"] += len(pairs)


def _settle(conn, suspects: list[tuple[int, int]], found: MarksCheck, fix: bool) -> None:
    """Reads each (reposter, original) of `suspects` again, and reports (and with `fix`,
    mends) the mark of each that is still one-sided: the claim is the truth."""
    if not suspects:
        return
    batch = Batch(conn)
    reads = [
        (
            uid,
            status_id,
            batch.zscore(keys.reposts_key(status_id), uid),
            batch.sismember(keys.reposted_key(uid), status_id),
        )
        for uid, status_id in suspects
    ]
    batch.execute()
    pipe = conn.pipeline(transaction=False)
    for uid, status_id, claim, marked in reads:
        claim, marked = claim.value, marked.value
        if (claim is not None) == bool(marked):
            continue
        key = keys.reposted_key(uid)
        if claim is not None:
            found.findings.append((key, f"misses status {status_id}, which they reposted"))
            if fix:
                pipe.sadd(key, status_id)
        else:
            found.findings.append((key, f"marks status {status_id}, which they haven't reposted"))
            if fix:
                pipe.srem(key, status_id)
    pipe.execute()
