"""Home timelines of inactive users: dropped, and rebuilt when their owner returns
(as Mastodon does), so that memory goes to the homes people read.

Reading your home records the time (in your profile and in ACTIVE_HOMES, at most once
every HOME_READ_RESOLUTION seconds). `drop_inactive_homes` (`manage.py drop_inactive_homes`,
a daily pass) drops the homes of users who haven't read theirs for HOME_INACTIVE_DAYS
and marks them in DROPPED_HOMES; fan-out jobs skip those users (one BITFIELD_RO a job),
and the first read after such a pause clears the mark and queues a refill of the home
from everyone followed (feeds.refill.note_home_read), while the page says the home is
catching up. A status posted while a home was skipped is on its author's profile, which
the refill (queued after the read was recorded) reads.

The first pass of a fan-out (inside the post's request) doesn't look: that would cost
the post a round trip. A dropped home it recreates holds only those statuses, and the
next pass drops it again. Users with no recorded read (before this existed) count as
active."""

import itertools
import time

from django.conf import settings

from accounts.keys import user_key
from socialsite.redis import Client, PackedPipeline, Pipe, get_redis

from .. import keys
from . import scripts

# The user's profile field holding when they last read their home (Unix seconds), and
# the one set while their home is being rebuilt after a pause.
READ_FIELD = "home_read"
REBUILDING_FIELD = "home_rebuilding"
DAY = 86_400
# GETs (SETs) of DROPPED_HOMES in one BITFIELD: Redis 6.2 grows a BITFIELD's list of
# operations one realloc at a time, which on a fragmented heap (libc malloc) copies the
# list each time: a job's 10,000 in one command cost 70-85 ms after the bench's post part,
# 1 ms on a fresh server.
BITS_PER_COMMAND = 100


def inactive_before(now: float | None = None) -> float:
    """The time before which a home's last read makes it inactive."""
    return (now or time.time()) - settings.HOME_INACTIVE_DAYS * DAY


def with_homes(conn: Client, uids: list[str]) -> list[str]:
    """`uids` but those whose homes are dropped (one BITFIELD_RO of DROPPED_HOMES: a bit
    a uid, a quarter of the Redis CPU of a ZMSCORE of ACTIVE_HOMES once that holds a
    million readers, README "Posting and fan-out")."""
    if not uids:
        return uids
    # Packed by joins: redis-py's (or hiredis's) packing of a job's 30,000 arguments costs
    # more than Redis spends answering them.
    pipe, sent = PackedPipeline(conn), []
    for start in range(0, len(uids), BITS_PER_COMMAND):
        part = uids[start : start + BITS_PER_COMMAND]
        reply, values = pipe.execute_repeating(
            ("BITFIELD_RO", keys.DROPPED_HOMES), ("GET", "u1"), part
        )
        sent.append((reply, values))
    pipe.execute()
    dropped = {
        uid for reply, values in sent for uid, bit in zip(values, reply.value, strict=True) if bit
    }
    return [uid for uid in uids if str(uid) not in dropped] if dropped else uids


def mark_dropped(client: Pipe, uids: list, dropped: bool) -> None:
    """Queues on a pipeline the commands that set (or clear) the DROPPED_HOMES bits of
    `uids`, BITS_PER_COMMAND a command."""
    bit = 1 if dropped else 0
    for start in range(0, len(uids), BITS_PER_COMMAND):
        ops = [x for uid in uids[start : start + BITS_PER_COMMAND] for x in ("SET", "u1", uid, bit)]
        client.execute_command("BITFIELD", keys.DROPPED_HOMES, *ops)


def drop_inactive_homes(now: float | None = None, batch: int = 1000) -> int:
    """Drops the home timelines of users who haven't read theirs for HOME_INACTIVE_DAYS
    (each step one script in its user's slot) and marks them in DROPPED_HOMES, for fan-out
    to skip; returns how many it dropped. They stay in ACTIVE_HOMES, so that a home
    recreated meanwhile by a first fan-out pass is dropped again by the next pass."""
    conn, cutoff, dropped = get_redis(), inactive_before(now), 0
    for start in itertools.count(0, batch):
        uids = conn.zrangebyscore(keys.ACTIVE_HOMES, "-inf", f"({cutoff}", start=start, num=batch)
        if not uids:
            return dropped
        # Marked first: a read from here on clears the mark (note_home_read) and keeps its
        # home (the script re-checks the read); the homes the scripts keep are cleared.
        marks = conn.pipeline(transaction=False)
        mark_dropped(marks, uids, True)
        marks.execute()
        pipe = PackedPipeline(conn)
        for uid in uids:
            home = keys.home_timeline_key(uid)
            scripts.drop_home(
                pipe,
                user_key=user_key(uid),
                home_key=home,
                shown_reposts_key=keys.shown_reposts_key(home),
                cutoff=cutoff,
            )
        done = pipe.execute()
        mark_dropped(marks, [uid for uid, gone in zip(uids, done, strict=True) if not gone], False)
        marks.execute()
        dropped += sum(done)
    raise AssertionError("itertools.count never ends")
