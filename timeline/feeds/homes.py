"""Home timelines of inactive users: dropped, and rebuilt when their owner returns
(as Mastodon does), so that memory goes to the homes people read.

Reading your home records the time (in your profile and in ACTIVE_HOMES, at most once
every HOME_READ_RESOLUTION seconds). `drop_inactive_homes` (`manage.py drop_inactive_homes`,
a daily pass) drops the homes of users who haven't read theirs for HOME_INACTIVE_DAYS;
fan-out jobs skip those users (one ZMSCORE a job), and the first read after such a
pause queues a refill of the home from everyone followed (feeds.refill.note_home_read),
while the page says the home is catching up. A status posted while a home was skipped is on its
author's profile, which the refill (queued after the read was recorded) reads.

The first pass of a fan-out (inside the post's request) doesn't look: that would cost
the post a round trip. A dropped home it recreates holds only those statuses, and the
next pass drops it again. Users with no recorded read (before this existed) count as
active."""

import itertools
import time

from django.conf import settings

from accounts.keys import user_key
from socialsite.redis import PackedPipeline, get_redis
from socialsite.scripts import LuaScripts

from .. import keys

scripts = LuaScripts(__file__)

# The user's profile field holding when they last read their home (Unix seconds), and
# the one set while their home is being rebuilt after a pause.
READ_FIELD = "home_read"
REBUILDING_FIELD = "home_rebuilding"
DAY = 86_400


def inactive_before(now: float | None = None) -> float:
    """The time before which a home's last read makes it inactive."""
    return (now or time.time()) - settings.HOME_INACTIVE_DAYS * DAY


def with_homes(conn, uids: list[str]) -> list[str]:
    """`uids` but those whose homes are dropped for inactivity (one ZMSCORE)."""
    if not uids:
        return uids
    cutoff = inactive_before()
    # Packed in C: redis-py's packing of a job's 10,000 arguments costs more than Redis
    # spends answering them.
    pipe = PackedPipeline(conn)
    pipe.zmscore(keys.ACTIVE_HOMES, uids)
    (read,) = pipe.execute()
    return [uid for uid, at in zip(uids, read, strict=True) if at is None or at >= cutoff]


def drop_inactive_homes(now: float | None = None, batch: int = 1000) -> int:
    """Drops the home timelines of users who haven't read theirs for HOME_INACTIVE_DAYS
    (each step one script in its user's slot); returns how many it dropped. They stay in
    ACTIVE_HOMES, so that a home recreated meanwhile by a first fan-out pass is dropped
    again by the next pass."""
    conn, cutoff, dropped = get_redis(), inactive_before(now), 0
    for start in itertools.count(0, batch):
        uids = conn.zrangebyscore(keys.ACTIVE_HOMES, "-inf", f"({cutoff}", start=start, num=batch)
        if not uids:
            return dropped
        pipe = PackedPipeline(conn)
        for uid in uids:
            home = keys.home_timeline_key(uid)
            scripts.run(
                pipe, "drop_home", [user_key(uid), home, keys.shown_reposts_key(home)], [cutoff]
            )
        dropped += sum(pipe.execute())
