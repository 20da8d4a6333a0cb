"""Checking polls against what they are made of (`manage.py repair`): each poll's counts
against its voters, each voter's own copy of their vote against the poll's, the voters
of a status gone, and a poll past its time that no job will close.

Walks Redis with SCAN (every primary of a cluster), CHUNK keys at a time; each suspect
is read again before it is reported, so a vote between its two steps isn't damage."""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from socialsite import jobs
from socialsite import keys as infra_keys
from socialsite.redis import get_redis, scan_batches

from .. import keys
from ..statuses.services import queue_update
from .keys import POLL_VOTERS_PATTERN, poll_voters_key, status_id_in_voters_key
from .services import close_job

CHUNK = 1000
# A poll this long past its closing time and still open has lost its job (a worker's
# pass is a second; this leaves room for a backlog).
OVERDUE_SECONDS = 3600

Progress = Callable[[str], None]


@dataclass
class PollsCheck:
    """What a walk of the polls checked and found, as (key, problem)."""

    checked: dict[str, int] = field(default_factory=dict)
    findings: list[tuple[str, str]] = field(default_factory=list)


def check_polls(*, fix: bool, progress: Progress = lambda _: None) -> PollsCheck:
    """Every poll whose counts, voters' copies or closing job disagree with its voters
    and its time (with `fix`, made to agree)."""
    conn = get_redis()
    found = PollsCheck()
    _check_voters(conn, found, fix)
    progress(f"polls: {found.checked['poll voters']} polls' voters checked")
    _check_closing(conn, found, fix)
    progress(f"polls: {found.checked['statuses']} statuses checked for a poll to close")
    return found


def counted(voters: dict[str, str], options: int) -> tuple[int, str]:
    """How many voted and each option's votes ("3,0,1") from a poll's voters hash."""
    counts = [0] * options
    for choices in voters.values():
        for choice in choices.split(","):
            if 0 <= int(choice) < options:
                counts[int(choice)] += 1
    return len(voters), ",".join(map(str, counts))


def _check_voters(conn, found: PollsCheck, fix: bool) -> None:
    found.checked["poll voters"] = 0
    for names in scan_batches(conn, POLL_VOTERS_PATTERN, "hash", CHUNK):
        for name in names:
            _check_poll_voters(conn, found, fix, status_id_in_voters_key(name))
        found.checked["poll voters"] += len(names)


def _check_poll_voters(conn, found: PollsCheck, fix: bool, status_id: int) -> None:
    pipe = conn.pipeline(transaction=False)
    pipe.hmget(keys.status_key(status_id), "poll_options", "poll_voters", "poll_counts")
    pipe.hgetall(poll_voters_key(status_id))
    (options, voters_count, counts), voters = pipe.execute()
    if options is None:
        found.findings.append((poll_voters_key(status_id), "the voters of a status gone"))
        if fix:
            jobs.enqueue(conn, ("forget_poll", {"status_id": status_id, "cursor": 0}))
        return
    want_voters, want_counts = counted(voters, len(json.loads(options)))
    have_counts = counts or ",".join("0" * len(json.loads(options)))
    if int(voters_count or 0) != want_voters or have_counts != want_counts:
        found.findings.append(
            (
                keys.status_key(status_id),
                f"poll counts {voters_count or 0} voters {have_counts}, "
                f"its voters say {want_voters} {want_counts}",
            )
        )
        if fix:
            pipe = conn.pipeline(transaction=False)
            queue_update(pipe, status_id, ["poll_voters", want_voters, "poll_counts", want_counts])
            pipe.execute()
    if not voters:
        return
    pipe = conn.pipeline(transaction=False)
    for voter in voters:
        pipe.hget(keys.poll_votes_key(voter), str(status_id))
    copies = pipe.execute()
    missing = [(v, c) for (v, c), copy in zip(voters.items(), copies, strict=True) if copy != c]
    for voter, choices in missing:
        found.findings.append(
            (keys.poll_votes_key(voter), f"misses its vote {choices} in poll {status_id}")
        )
        if fix:
            conn.hset(keys.poll_votes_key(voter), str(status_id), choices)


def _check_closing(conn, found: PollsCheck, fix: bool) -> None:
    """Open polls long past their time with no closing job waiting (a lost job)."""
    found.checked["statuses"] = 0
    now = time.time()
    for names in scan_batches(conn, keys.STATUS_PATTERN, "hash", CHUNK):
        pipe = conn.pipeline(transaction=False)
        for name in names:
            pipe.hmget(name, "poll_expires", "poll_closed")
        overdue = [
            keys.status_id_in_key(name)
            for name, (expires, closed) in zip(names, pipe.execute(), strict=True)
            if expires is not None and closed != "1" and float(expires) < now - OVERDUE_SECONDS
        ]
        found.checked["statuses"] += len(names)
        for status_id in overdue:
            job = close_job(status_id)
            waiting = conn.zscore(infra_keys.SCHEDULED_JOBS, jobs.scheduled_member(job))
            if waiting is not None or {"status_id": int(status_id)} in jobs.unfinished_jobs(
                "close_poll"
            ):
                continue
            found.findings.append((keys.status_key(status_id), "an open poll past its time"))
            if fix:
                jobs.schedule(conn, job, now)
