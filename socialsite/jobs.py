"""Durable background work on a Redis Stream with a consumer group.

A job stays in the group's pending list until its handler finishes and it is
acknowledged, so a worker killed mid-job loses nothing: after JOB_CLAIM_IDLE_MS
another worker claims it (XAUTOCLAIM) and runs it again. Handlers must therefore
be idempotent. A handler returns its follow-up jobs; they are queued in the same
MULTI as the acknowledgement, so a job is never both finished and un-followed.
A job that keeps failing moves to the failed stream after JOB_MAX_ATTEMPTS.

There is one registry of handlers: each app registers its own with @handler(kind) in
modules its AppConfig.ready() imports, so every process that runs jobs knows every
kind, whichever modules it happened to import.
"""

import contextvars
import json
import logging
import os
import socket
import time
from collections.abc import Callable

import redis
from django.conf import settings

from . import keys
from .redis import Client, get_redis, is_redis_unavailable
from .scripts import LuaScripts

log = logging.getLogger(__name__)

Job = tuple[str, dict]
Handler = Callable[[dict], list[Job]]

_handlers: dict[str, Handler] = {}
_lua = LuaScripts(__file__)


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Registers the function that runs jobs of `kind`."""

    def register(function: Handler) -> Handler:
        _handlers[kind] = function
        return function

    return register


def enqueue(client, job: Job) -> None:
    """Queues a job on `client` (a connection, or a pipeline to queue it with other writes)."""
    kind, args = job
    client.xadd(keys.JOB_STREAM, {"kind": kind, "args": json.dumps(args)})


def schedule(client, job: Job, at: float) -> None:
    """Queues a job to run at Unix time `at` (a connection, or a pipeline to queue it with
    other writes): kept in Redis until due, so it survives any worker's restart; the same
    job scheduled again runs once, at the later time given."""
    client.zadd(keys.SCHEDULED_JOBS, {scheduled_member(job): at})


def unschedule(client, job: Job) -> None:
    """Takes back a job `schedule` queued (nothing if it is gone or ran)."""
    client.zrem(keys.SCHEDULED_JOBS, scheduled_member(job))


def scheduled_member(job: Job) -> str:
    """A scheduled job's member of SCHEDULED_JOBS: its kind and its arguments' JSON."""
    kind, args = job
    return json.dumps([kind, json.dumps(args)])


# Scheduled jobs moved onto the stream at a time: a backlog (workers down for a day)
# moves over several passes rather than in one long script.
RELEASED_PER_PASS = 500


def release_due_jobs(client, *, now: float | None = None) -> int:
    """Moves the scheduled jobs due by `now` (default: now) onto the job stream, in one
    script: each is then queued or still scheduled, never both. Returns how many."""
    return release_due(
        client,
        scheduled_key=keys.SCHEDULED_JOBS,
        stream_key=keys.JOB_STREAM,
        now=time.time() if now is None else now,
        count=RELEASED_PER_PASS,
    )


def release_due(client, *, scheduled_key: str, stream_key: str, now: float, count: int) -> int:
    """Runs lua/release_due_jobs.lua (the only way to)."""
    return _lua.run(client, "release_due_jobs", [scheduled_key, stream_key], [now, count])


def ensure_group(conn: Client) -> None:
    try:
        conn.xgroup_create(keys.JOB_STREAM, keys.JOB_GROUP, id="0", mkstream=True)
    except redis.ResponseError as error:
        if "BUSYGROUP" not in str(error):
            raise


# Whether the job running now was taken over (claimed) rather than read new: see redoing().
_redoing: contextvars.ContextVar[bool] = contextvars.ContextVar("redoing", default=False)


def redoing() -> bool:
    """Whether the job running now is being redone: claimed after JOB_CLAIM_IDLE_MS from a
    worker that died in it (or failed it), which may have done part of it. A handler
    whose steps are not idempotent by themselves (a home's LPUSH) checks first then."""
    return _redoing.get()


def _run(conn: Client, message_id: str, fields: dict, *, redone: bool = False) -> None:
    kind = fields.get("kind", "")
    token = _redoing.set(redone)
    try:
        follow_ups = _handlers[kind](json.loads(fields["args"]))
    finally:
        _redoing.reset(token)
    with conn.pipeline(transaction=True) as pipe:
        for follow_up in follow_ups:
            enqueue(pipe, follow_up)
        pipe.xack(keys.JOB_STREAM, keys.JOB_GROUP, message_id)
        pipe.xdel(keys.JOB_STREAM, message_id)
        pipe.execute()


def _give_up(conn: Client, message_id: str, fields: dict, reason: str) -> None:
    log.error("job %s (%s) failed for good: %s", message_id, fields.get("kind"), reason)
    with conn.pipeline(transaction=True) as pipe:
        pipe.xadd(
            keys.FAILED_JOB_STREAM,
            {**fields, "job_id": message_id, "error": reason[:500], "failed": time.time()},
            maxlen=10_000,
            approximate=True,
        )
        pipe.xack(keys.JOB_STREAM, keys.JOB_GROUP, message_id)
        pipe.xdel(keys.JOB_STREAM, message_id)
        pipe.execute()


def _attempts(conn: Client, message_id: str) -> int:
    pending = conn.xpending_range(
        keys.JOB_STREAM, keys.JOB_GROUP, min=message_id, max=message_id, count=1
    )
    return pending[0]["times_delivered"] if pending else 1


# Jobs a worker takes at a time. One: a job it holds is one no idle worker can take, and
# the chunks of a big fan-out (tens of milliseconds each) must spread over all the
# workers; the extra read per job is a fraction of a millisecond.
JOBS_PER_READ = 1


def _next_batch(conn: Client, consumer: str, block_ms: int) -> tuple[list[tuple[str, dict]], bool]:
    """Jobs abandoned by dead workers first, then new ones; and whether they were such
    abandoned (claimed) ones, which may be done in part."""
    claim_idle = settings.JOB_CLAIM_IDLE_MS
    # Redis 7 adds a third element (deleted ids) to the reply; 6.2 has two.
    claimed = conn.xautoclaim(
        keys.JOB_STREAM, keys.JOB_GROUP, consumer, min_idle_time=claim_idle, count=JOBS_PER_READ
    )[1]
    claimed = [(mid, fields) for mid, fields in claimed if fields]
    if claimed:
        return claimed, True
    reply = conn.xreadgroup(
        keys.JOB_GROUP,
        consumer,
        {keys.JOB_STREAM: ">"},
        count=JOBS_PER_READ,
        block=block_ms or None,
    )
    return (reply[0][1] if reply else []), False


# A consumer with nothing pending and silent this many claim windows is a dead worker's:
# a live one reads (and so is seen) every block_ms, at most a second apart.
DEAD_CONSUMER_WINDOWS = 10


def forget_dead_consumers(conn: Client) -> list[str]:
    """Removes from the group the consumers of workers that died; returns their names.

    A killed worker's name (host-pid) stays in the group forever, and XINFO CONSUMERS
    grows with every restart. Only consumers with 0 pending jobs are removed (XGROUP
    DELCONSUMER would drop their pending jobs): their jobs are first taken over by a
    live worker's XAUTOCLAIM after JOB_CLAIM_IDLE_MS, and the consumer goes on a later
    pass, once idle DEAD_CONSUMER_WINDOWS times that long."""
    dead_after = DEAD_CONSUMER_WINDOWS * settings.JOB_CLAIM_IDLE_MS
    dead = [
        consumer["name"]
        for consumer in conn.xinfo_consumers(keys.JOB_STREAM, keys.JOB_GROUP)
        if consumer["pending"] == 0 and consumer["idle"] >= dead_after
    ]
    for name in dead:
        conn.xgroup_delconsumer(keys.JOB_STREAM, keys.JOB_GROUP, name)
    return dead


def work(
    *,
    burst: bool = False,
    block_ms: int = 1000,
    stop: Callable[[], bool] = lambda: False,
    consumer: str | None = None,
) -> int:
    """Runs jobs until `stop()` (or, with `burst`, until none are queued or pending), as
    the group's `consumer` (default: host-pid; give each worker thread its own).

    Returns how many jobs finished."""
    conn = get_redis()
    ensure_group(conn)
    consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
    done = 0
    # Dead consumers are looked for when the worker has nothing to do, once a claim window.
    next_cleanup = 0.0
    # Scheduled jobs are looked for at most once a second (and at every idle pass).
    next_release = 0.0
    while not stop():
        try:
            if time.monotonic() >= next_release:
                release_due_jobs(conn)
                next_release = time.monotonic() + 1
            batch, claimed = _next_batch(conn, consumer, 0 if burst else block_ms)
        except redis.RedisError as error:
            if burst or not is_redis_unavailable(error):
                raise
            # Keep the worker alive across Redis restarts; pending jobs wait in the stream.
            log.warning("Redis unavailable (%s); retrying in 1 s", error)
            time.sleep(1)
            continue
        if not batch:
            if time.monotonic() >= next_cleanup:
                forget_dead_consumers(conn)
                next_cleanup = time.monotonic() + settings.JOB_CLAIM_IDLE_MS / 1000
            if burst and not _unfinished(conn):
                break
            if burst:
                time.sleep(0.05)
            continue
        for message_id, fields in batch:
            if fields.get("kind") not in _handlers:
                _give_up(conn, message_id, fields, f"unknown job kind {fields.get('kind')!r}")
                continue
            try:
                _run(conn, message_id, fields, redone=claimed)
                done += 1
            except Exception as error:
                if not burst and is_redis_unavailable(error):
                    # Not the job's failure (Redis restarting, loading, busy): it stays
                    # pending, and is claimed and redone once Redis answers again.
                    log.warning("job %s waits: Redis unavailable (%s)", message_id, error)
                    time.sleep(1)
                    break
                log.exception("job %s (%s) failed", message_id, fields.get("kind"))
                if _attempts(conn, message_id) >= settings.JOB_MAX_ATTEMPTS:
                    _give_up(conn, message_id, fields, repr(error))
    return done


def _unfinished(conn: Client) -> bool:
    """Whether any job is still queued or pending (held by a worker, maybe a dead one):
    finished jobs are deleted from the stream. Queued ones count too, for a burst worker
    that found none to read while another held the job that queued them."""
    return conn.xlen(keys.JOB_STREAM) > 0


def unfinished_jobs(kind: str) -> list[dict]:
    """The arguments of every `kind` job still queued or in progress, oldest first."""
    return [
        json.loads(fields["args"])
        for _, fields in get_redis().xrange(keys.JOB_STREAM)
        if fields["kind"] == kind
    ]


def queue_stats() -> dict:
    """Numbers for operators: queued (not yet taken), in progress, failed, oldest age in s."""
    conn = get_redis()
    ensure_group(conn)
    pipe = conn.pipeline(transaction=False)
    pipe.xlen(keys.JOB_STREAM)
    pipe.xpending(keys.JOB_STREAM, keys.JOB_GROUP)
    pipe.xlen(keys.FAILED_JOB_STREAM)
    pipe.xrange(keys.JOB_STREAM, count=1)
    unfinished, pending, failed, oldest = pipe.execute()
    oldest_age = 0.0
    if oldest:
        oldest_ms = int(oldest[0][0].split("-")[0])
        oldest_age = max(0.0, time.time() - oldest_ms / 1000)
    return {
        # Finished jobs are deleted, so the stream holds only queued and pending ones.
        "queued": unfinished - pending["pending"],
        "in_progress": pending["pending"],
        "failed": failed,
        "oldest_age": oldest_age,
    }
