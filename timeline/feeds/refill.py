"""Refilling a home timeline after an unfollow (Redis in Action 8.4's exercise).

Unfollowing takes the unfollowed user's statuses out of home, which leaves it
short while older statuses of the people still followed were trimmed away long
ago. A background job walks the user's following set in batches (with the
fan-out cursor), reads each one's newest statuses and merges them back into
home: newest first, no duplicates (home is a ZSET), at most HOME_TIMELINE_SIZE."""

import heapq
from collections import defaultdict

from django.conf import settings

from socialsite import jobs
from socialsite.redis import get_redis
from socialsite.scripts import LuaScripts

from .. import keys
from . import fanout

scripts = LuaScripts(__file__)


def refill_job(uid: int) -> jobs.Job:
    """The job that refills `uid`'s home from everyone they follow."""
    return ("refill_home", {"uid": int(uid), "after_score": "-inf", "skip": 0})


@jobs.handler("refill_home")
def refill_home_batch(args: dict) -> list[jobs.Job]:
    """Merges into home the newest statuses of the next REFILL_FOLLOWEES_PER_PASS people
    followed (and the user's own); idempotent."""
    uid, size = args["uid"], settings.HOME_TIMELINE_SIZE
    per_pass = settings.REFILL_FOLLOWEES_PER_PASS
    home, following = keys.home_timeline_key(uid), keys.following_key(uid)
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.zrangebyscore(
        following, args["after_score"], "+inf", start=args["skip"], num=per_pass, withscores=True
    )
    pipe.zcard(home)
    pipe.zrange(home, 0, 0, withscores=True)
    batch, length, oldest = pipe.execute()
    # A full home has room only for statuses newer than its oldest.
    floor = oldest[0][1] if length >= size and oldest else "-inf"
    sources = [str(uid), *(followee for followee, _ in batch)]
    for source in sources:
        pipe.zrevrangebyscore(
            keys.profile_timeline_key(source), "+inf", floor, start=0, num=size, withscores=True
        )
    read = zip(sources, pipe.execute(), strict=True)
    entries = ((score, status_id, source) for source, got in read for status_id, score in got)
    by_source = defaultdict(list)
    for score, status_id, source in heapq.nlargest(size, entries):
        by_source[source] += [score, status_id]
    if by_source:
        flat = [x for source, pairs in by_source.items() for x in (source, len(pairs) // 2, *pairs)]
        scripts.run(conn, "refill_home", [following, home], [uid, size, *flat])
    rest = fanout.rest_of_fan_out(("refill_home", args), batch, per_pass)
    return [rest] if rest else []
