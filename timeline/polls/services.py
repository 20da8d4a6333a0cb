"""Polls: a status may carry one, 2 to 4 options of up to 50 characters, single or
multiple choice, open 5 minutes to 7 days, its counts optionally hidden until it closes.

The poll lives in its status's hash (timeline.statuses.records: options, when it closes,
the counts), so every page reads it with the status at no cost, and every change to it
goes through the status cache's channel like a like's. Who voted, and what, is a hash
in the status's slot (keys.poll_voters_key): a vote is one script there (one vote a
person, never changed, as Mastodon; none once closed), then the voter's own copy in
their slot (timeline.keys.poll_votes_key), which pages read with the like and repost
marks (statuses.marks). Closing is a job scheduled for the moment the poll closes
(socialsite.jobs.schedule: kept in Redis, so it survives any worker's restart): it
marks the poll closed and notifies its voters and its author ("poll")."""

import json
import time
from dataclasses import dataclass

from accounts.keys import SUSPENDED_USERS, user_key
from socialsite import jobs
from socialsite.redis import Batch, Client, get_redis

from .. import keys
from ..audience import selectors as audience
from ..notifications import services as notifications
from ..statuses.cache import statuses as kept
from ..statuses.records import Status
from ..statuses.selectors import (
    GONE,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)
from . import scripts
from .keys import poll_voters_key

MIN_OPTIONS, MAX_OPTIONS = 2, 4
OPTION_MAX_LENGTH = 50
MIN_SECONDS, MAX_SECONDS = 5 * 60, 7 * 24 * 3600
# The status fields a poll sets: only posting through here sets them (posting's
# RESERVED_FIELDS), and the vote and close scripts change them.
POLL_FIELDS = frozenset(
    {
        "poll_options",
        "poll_expires",
        "poll_multiple",
        "poll_hide_totals",
        "poll_counts",
        "poll_voters",
        "poll_closed",
    }
)
# Voters notified a job at once when a poll closes (the rest by follow-up jobs).
NOTIFIED_PER_PASS = 1000


class PollError(ValueError):
    """A poll, or a vote in one, that can't be: the message says why."""


@dataclass(frozen=True)
class PollSpec:
    """A checked poll to post: its options, how long it stays open, single or multiple
    choice, whether its counts are hidden until it closes."""

    options: tuple[str, ...]
    expires_in: int
    multiple: bool = False
    hide_totals: bool = False


def check_poll(
    options: list[str], expires_in: object, *, multiple: bool = False, hide_totals: bool = False
) -> PollSpec:
    """The poll to post; PollError saying what is wrong (options' number, length or
    repeats, a time outside 5 minutes to 7 days)."""
    cleaned = [str(option).strip() for option in options]
    if not MIN_OPTIONS <= len(cleaned) <= MAX_OPTIONS:
        raise PollError(f"A poll has {MIN_OPTIONS} to {MAX_OPTIONS} options.")
    if any(not option for option in cleaned):
        raise PollError("A poll's options can't be blank.")
    if any(len(option) > OPTION_MAX_LENGTH for option in cleaned):
        raise PollError(f"A poll's options have at most {OPTION_MAX_LENGTH} characters.")
    if len({option.casefold() for option in cleaned}) < len(cleaned):
        raise PollError("A poll's options must differ.")
    try:
        seconds = int(str(expires_in))
    except ValueError:
        raise PollError("A poll's duration is a number of seconds.") from None
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise PollError("A poll stays open from 5 minutes to 7 days.")
    return PollSpec(tuple(cleaned), seconds, bool(multiple), bool(hide_totals))


def poll_fields(spec: PollSpec, posted: float) -> dict[str, str]:
    """The status fields of `spec`'s poll for a status posted at `posted`."""
    fields = {
        "poll_options": json.dumps(list(spec.options), ensure_ascii=False),
        "poll_expires": str(int(posted) + spec.expires_in),
    }
    if spec.multiple:
        fields["poll_multiple"] = "1"
    if spec.hide_totals:
        fields["poll_hide_totals"] = "1"
    return fields


def close_job(status_id: int | str) -> jobs.Job:
    return ("close_poll", {"status_id": int(status_id)})


def queue_close(pipe, status: Status) -> None:
    """Queues the job that closes `status`'s poll when due (nothing if it has none)."""
    if status.get("poll_options"):
        jobs.schedule(pipe, close_job(status["id"]), float(status["poll_expires"]))


def queue_forget(pipe, status: Status) -> None:
    """Queues what a deleted status's poll leaves: its closing job, and a job that takes
    its votes off its voters' marks and then drops its voters."""
    if status.get("poll_options"):
        jobs.unschedule(pipe, close_job(status["id"]))
        jobs.enqueue(pipe, ("forget_poll", {"status_id": int(status["id"]), "cursor": 0}))


def parse_choices(status: Status, choices: list) -> list[int]:
    """`choices` (option indexes, as given) checked against `status`'s poll, sorted;
    PollError if there are none, too many for a single choice, or an unknown one."""
    options = len(json.loads(status["poll_options"]))
    try:
        picked = sorted({int(str(choice)) for choice in choices})
    except ValueError:
        raise PollError("Choices are the numbers of the options, from 0.") from None
    if not picked:
        raise PollError("Choose an option.")
    if len(picked) > 1 and status.get("poll_multiple") != "1":
        raise PollError("This poll takes one choice.")
    if picked[0] < 0 or picked[-1] >= options:
        raise PollError(f"This poll's options are 0 to {options - 1}.")
    return picked


def vote(uid: int, status_id: int | str, choices: list) -> str:
    """Counts `uid`'s `choices` in status `status_id`'s poll (given a repost, its
    original's); returns them ("0,2"). StatusGone if it is gone, hidden from them or has
    no poll; PollError if they voted already (a vote is never changed), for a closed
    poll or bad choices. 3 round trips: the voter and the status; the status's slot; the voter's."""
    conn = get_redis()
    status = check_vote(conn, uid, status_id)
    picked = ",".join(str(choice) for choice in parse_choices(status, choices))
    return do_vote(conn, uid, status, picked)


def check_vote(conn: Client, uid: int, status_id: int | str) -> Status:
    """The status whose poll `uid` votes in (a repost's original); StatusGone if it is
    gone, hidden from them (the one rule, timeline.audience) or has no poll."""
    status_id = status_id_of(status_id)
    reads = Batch(conn)
    login = reads.hget(user_key(uid), "login")
    fields = reads.hgetall(keys.status_key(status_id))
    suspended = reads.smembers(SUSPENDED_USERS)
    seen_by = audience.queue_audience(reads, uid)
    reads.execute()
    if login.value is None:
        raise ValueError("No such user.")
    status = decode_status(status_id, fields.value)
    if status is not None and status.get("repost_of"):
        return check_vote(conn, uid, status["repost_of"])
    if (
        status is None
        or not status.get("poll_options")
        or is_hidden(status, hidden_uids(suspended.value))
        or not audience.visible(conn, [status], seen_by.audience)
    ):
        raise StatusGone(GONE)
    if status["uid"] == int(uid):
        # As Mastodon's: a poll's author sees its results, and doesn't vote.
        raise PollError("You can't vote in your own poll.")
    return status


def do_vote(conn: Client, uid: int, status: Status, picked: str) -> str:
    """Counts the vote in the status's slot, then keeps the voter's copy in theirs (also
    when they voted already: a copy lost to a failure between the two steps comes back)."""
    kept.forget(status["id"])
    state, choices = scripts.vote(
        conn,
        status_key=keys.status_key(status["id"]),
        voters_key=poll_voters_key(status["id"]),
        voter=uid,
        choices=picked,
        now=time.time(),
        changes_channel=keys.STATUS_CHANGES_CHANNEL,
    )
    state = int(state)
    if state == 0:
        raise StatusGone(GONE)
    if state == -2:
        raise PollError("This poll is closed.")
    conn.hset(keys.poll_votes_key(uid), str(status["id"]), choices)
    if state == -1:
        raise PollError("You already voted in this poll.")
    return choices


@jobs.handler("close_poll")
def close_poll_job(args: dict) -> list[jobs.Job]:
    """Closes a poll that is due and notifies its author and its voters (the first
    NOTIFIED_PER_PASS; the rest by follow-up jobs); idempotent (a notification is made
    once). A poll not due yet (the clock of the worker behind) is scheduled again."""
    status_id = int(args["status_id"])
    conn = get_redis()
    kept.forget(status_id)
    state = int(
        scripts.close_poll(
            conn,
            status_key=keys.status_key(status_id),
            now=time.time(),
            changes_channel=keys.STATUS_CHANGES_CHANNEL,
        )
    )
    if state == -1:
        status = decode_status(status_id, conn.hgetall(keys.status_key(status_id)))
        if status is not None:
            queue_close(conn, status)
        return []
    if state == 0:
        return []
    return notify_voters({"status_id": status_id, "cursor": 0})


@jobs.handler("notify_poll_voters")
def notify_voters(args: dict) -> list[jobs.Job]:
    """Tells the next NOTIFIED_PER_PASS voters of a closed poll (the author too, on the
    first pass) that it closed; idempotent."""
    status_id, cursor = int(args["status_id"]), int(args["cursor"])
    conn = get_redis()
    status = decode_status(status_id, conn.hgetall(keys.status_key(status_id)))
    if status is None:
        return []
    cursor, voters = conn.hscan(poll_voters_key(status_id), cursor, count=NOTIFIED_PER_PASS)
    author = {"id": status["uid"], "login": status["login"]}
    closed_at = float(status["poll_expires"])
    recipients = [int(voter) for voter in voters if int(voter) != status["uid"]]
    if not args["cursor"]:
        recipients.append(status["uid"])
    pipe = conn.pipeline(transaction=False)
    for recipient in recipients:
        notifications.queue_notify(
            pipe, recipient, notifications.POLL, author, status_id, closed_at
        )
    pipe.execute()
    return [("notify_poll_voters", {"status_id": status_id, "cursor": cursor})] if cursor else []


@jobs.handler("forget_poll")
def forget_poll(args: dict) -> list[jobs.Job]:
    """Takes a deleted status's poll votes off the next NOTIFIED_PER_PASS voters' marks,
    and drops its voters once all are done; idempotent."""
    status_id, cursor = int(args["status_id"]), int(args["cursor"])
    conn = get_redis()
    voters_key = poll_voters_key(status_id)
    cursor, voters = conn.hscan(voters_key, cursor, count=NOTIFIED_PER_PASS)
    pipe = conn.pipeline(transaction=False)
    for voter in voters:
        pipe.hdel(keys.poll_votes_key(voter), str(status_id))
    if not cursor:
        pipe.delete(voters_key)
    pipe.execute()
    return [("forget_poll", {"status_id": status_id, "cursor": cursor})] if cursor else []


def poll_limits() -> dict[str, int]:
    """The limits the composer and the client API's instance entity show."""
    return {
        "max_options": MAX_OPTIONS,
        "max_characters_per_option": OPTION_MAX_LENGTH,
        "min_expiration": MIN_SECONDS,
        "max_expiration": MAX_SECONDS,
    }
