"""Refilling a timeline after one of its sources leaves it (Redis in Action 8.4's
exercise): a home after an unfollow, a list after a member is removed.

Unfollowing takes the unfollowed user's statuses out of home, which leaves it
short while older statuses of the people still followed were trimmed away long
ago; removing a list member does the same to the list. A background job walks the
remaining sources (the following set, or the list's members) in batches with the
fan-out cursor, reads each one's newest statuses and merges them back: newest
first, no duplicates, at most HOME_TIMELINE_SIZE (a home: feeds.home_list's merge).

The job's last batch also drops the ids of deleted statuses from the timeline. That
closes the race between a deletion and the leaving: the deletion's retract job
reaches the timelines of the author's followers (or lists) as they are when it
runs, and the leaving takes out the ids on the author's profile as it is when it
runs, so a status deleted before the leaving but retracted after it was missed by
both. The refill is queued after the leaving's last step, so a status deleted
before that is gone from its hash when the refill looks, and one deleted later was
still on the author's profile when the leaving read it and so was taken out by the
leaving. The same look catches a status this refill read just before its deletion
was retracted. (A copy made by a follow or a list member's addition is checked as
it lands instead: drop_copied_if_deleted.) Each step touches one slot: the reads are
single-key commands, the merge one script and the drop one ZREM (a home: LREMs) in
the timeline's slot; a deleted id is never reused, so dropping it late is always right."""

import heapq
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from accounts.keys import user_key
from socialsite import jobs
from socialsite.redis import Batch, Pipe, Reply, get_redis

from .. import keys
from ..follow_sets import following
from ..statuses.scores import POSTED
from ..statuses.selectors import exist
from . import fanout, home_list, homes, scripts


@dataclass(frozen=True)
class Refilled:
    """A kind of timeline the refill job rebuilds, keyed by its owner's id."""

    kind: str  # the job's kind
    id_arg: str  # the job's argument naming the owner
    owner: Callable[[int], str]  # the hash that must exist (a user's, a list's)
    # Queues the read of sources by the time they joined, oldest first from a cursor:
    # (a Batch, owner id, after, skip, count), its handle; `sources_read` decodes its
    # reply as (source, time) pairs.
    sources: Callable[[Pipe, int, object, int, int], Reply]
    sources_read: Callable[[list], list]
    timeline: Callable[[int], str]
    # Queues the merge of (source, [(posted, status id)...]) groups into the timeline,
    # kept to its newest `size`: (client, owner id, size, groups).
    merge: Callable[[object, int, int, list], None]
    # Queues taking (a few) ids out of the timeline: (client, owner id, ids).
    take_out: Callable[[object, int, list], None]
    owner_posts: bool  # whether the timeline holds its owner's own statuses
    # Whether its full timeline takes only statuses newer than its oldest (read by
    # score): a list's (a sorted set). A home holds ids only (feeds.home_list).
    floored: bool = False
    rebuilding_field: str | None = None  # the owner's field a last batch clears


def _merge_into_home(client, uid: int, size: int, groups: list) -> None:
    home_list.queue_merge(
        client, uid, size, [(source, [i for _, i in entries]) for source, entries in groups]
    )


def _merge_into_list(client, list_id: int, size: int, groups: list) -> None:
    flat = [
        x
        for source, entries in groups
        for x in (source, len(entries), *(v for p, i in entries for v in (POSTED.score(p), i)))
    ]
    scripts.refill_timeline(
        client,
        list_key=keys.list_key(list_id),
        members_key=keys.list_members_key(list_id),
        timeline_key=keys.list_timeline_key(list_id),
        trim=POSTED.trim(size),
        groups=flat,
    )


def _take_out_of_list(client, list_id: int, status_ids: list) -> None:
    client.zrem(keys.list_timeline_key(list_id), *status_ids)


def _queue_members(client: Pipe, list_id: int, after, skip: int, count: int) -> Reply:
    return client.zrangebyscore(
        keys.list_members_key(list_id), after, "+inf", start=skip, num=count, withscores=True
    )


HOME = Refilled(
    "refill_home",
    "uid",
    user_key,
    following.queue_from,
    following.pairs,
    keys.home_timeline_key,
    _merge_into_home,
    home_list.queue_remove,
    True,
    rebuilding_field=homes.REBUILDING_FIELD,
)
LIST = Refilled(
    "refill_list",
    "list_id",
    keys.list_key,
    _queue_members,
    list,
    keys.list_timeline_key,
    _merge_into_list,
    _take_out_of_list,
    False,
    floored=True,
)


def refill_job(uid: int) -> jobs.Job:
    """The job that refills `uid`'s home from everyone they follow."""
    return _first_batch(HOME, uid)


def refill_list_job(list_id: int) -> jobs.Job:
    """The job that refills a list's timeline from its members."""
    return _first_batch(LIST, list_id)


def note_home_read(conn, uid: int, user: dict, now: float | None = None) -> bool:
    """Records that `uid` reads their home (feeds.homes), given their profile as read
    (`user`), if the last record is older than HOME_READ_RESOLUTION (1 round trip then,
    else none); after HOME_INACTIVE_DAYS without a read, also queues the refill that
    rebuilds their home. Returns whether it is being rebuilt (the page says so)."""
    now = now or time.time()
    rebuilding = user.get(homes.REBUILDING_FIELD) == "1"
    last = float(user.get(homes.READ_FIELD) or 0)
    if now - last < settings.HOME_READ_RESOLUTION:
        return rebuilding
    returning = 0 < last < homes.inactive_before(now)
    pipe = conn.pipeline(transaction=False)
    pipe.hset(user_key(uid), homes.READ_FIELD, now)
    pipe.zadd(keys.ACTIVE_HOMES, {uid: now})
    homes.mark_dropped(pipe, [uid], False)
    if returning:
        pipe.hset(user_key(uid), homes.REBUILDING_FIELD, "1")
        # Queued after the read is recorded: fan-out reaches the home again from here on.
        jobs.enqueue(pipe, refill_job(uid))
    pipe.execute()
    return returning or rebuilding


def _first_batch(refilled: Refilled, owner_id: int) -> jobs.Job:
    return (refilled.kind, {refilled.id_arg: int(owner_id), "after_score": "-inf", "skip": 0})


@jobs.handler("refill_home")
def refill_home_batch(args: dict) -> list[jobs.Job]:
    """Merges into home the newest statuses of the next REFILL_FOLLOWEES_PER_PASS people
    followed (and the user's own); idempotent."""
    return _refill_batch(HOME, args)


@jobs.handler("refill_list")
def refill_list_batch(args: dict) -> list[jobs.Job]:
    """Merges into a list's timeline the newest statuses of its next
    REFILL_FOLLOWEES_PER_PASS members; idempotent."""
    return _refill_batch(LIST, args)


def _refill_batch(refilled: Refilled, args: dict) -> list[jobs.Job]:
    owner_id, size = args[refilled.id_arg], settings.HOME_TIMELINE_SIZE
    per_pass = settings.REFILL_FOLLOWEES_PER_PASS
    timeline = refilled.timeline(owner_id)
    conn = get_redis()
    reads = Batch(conn)
    found = refilled.sources(reads, owner_id, args["after_score"], args["skip"], per_pass)
    if refilled.floored:
        length = reads.zcard(timeline)
        oldest = reads.zrange(timeline, 0, 0, withscores=True)
    reads.execute()
    floor = "-inf"
    # A full timeline has room only for statuses newer than its oldest.
    if refilled.floored and length.value >= size and oldest.value:
        floor = oldest.value[0][1]
    batch = refilled.sources_read(found.value)
    newest = Batch(conn)
    own = [str(owner_id)] if refilled.owner_posts else []
    read = [
        (
            source,
            newest.zrevrangebyscore(
                keys.profile_timeline_key(source), "+inf", floor, start=0, num=size, withscores=True
            ),
        )
        for source in (*own, *(source for source, _ in batch))
    ]
    newest.execute()
    entries = ((score, status_id, source) for source, got in read for status_id, score in got.value)
    by_source = defaultdict(list)
    for posted, status_id, source in heapq.nlargest(size, entries):
        by_source[source].append((posted, status_id))
    if by_source:
        refilled.merge(conn, owner_id, size, list(by_source.items()))
    rest = fanout.rest_of_fan_out((refilled.kind, args), batch, per_pass)
    if rest:
        return [rest]
    drop_deleted(conn, refilled, owner_id)
    if refilled.rebuilding_field:
        conn.hdel(refilled.owner(owner_id), refilled.rebuilding_field)
    return []


def drop_deleted(conn, refilled: Refilled, owner_id: int) -> int:
    """Takes the ids of deleted statuses out of a timeline (3 round trips); returns how
    many it took."""
    timeline = refilled.timeline(owner_id)
    status_ids = conn.zrange(timeline, 0, -1) if refilled.floored else conn.lrange(timeline, 0, -1)
    status_ids = list(dict.fromkeys(status_ids))
    gone = [
        sid for sid, found in zip(status_ids, exist(conn, status_ids), strict=True) if not found
    ]
    if gone:
        pipe = conn.pipeline(transaction=False)
        refilled.take_out(pipe, owner_id, gone)
        pipe.execute()
    return len(gone)


def drop_copied_if_deleted(
    batch: Batch, take_out: Callable, profile_key: str, copied: list[tuple[str, float]]
) -> None:
    """Executes `batch`, which ends by copying the `copied` (id, score) entries of
    someone's profile (newest first) into a timeline (a follow, a list member's
    addition), with a look at which are still on that profile, and takes those gone back
    out of the timeline; the handles of what the caller queued on `batch` are read once
    it returns. `take_out(pipe, ids)` queues taking ids out of the timeline.

    A status deleted after its id was read but retracted before the copy landed would
    stay: its deletion's job already walked past this timeline. Deleting takes the id
    off the profile before it queues that job, so an id still on the profile now will be
    retracted by the job (the follower or list is in the author's set by then), and one
    already off it is dropped here: a second round trip only then. The look is one
    ZRANGEBYSCORE in the author's slot, from the oldest copied on (a ZMSCORE of every id
    walks a compact profile once an id: 1,000 ids cost ~15 ms), the drop in the
    timeline's."""
    if not copied:
        batch.execute()
        return
    on_profile = batch.zrangebyscore(profile_key, copied[-1][1], "+inf")
    batch.execute()
    still = set(on_profile.value)
    gone = [status_id for status_id, _ in copied if status_id not in still]
    if gone:
        take_out(batch.pipe, gone)
        batch.execute()
