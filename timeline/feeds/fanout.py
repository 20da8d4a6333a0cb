"""Delivering a status to its author's audience, and taking a deleted one back out:
the home timelines of their followers, and the timelines of the lists they are in
(walked through their "listed in" set: Redis in Action's "Updating lists").

The first POSTS_PER_PASS of each get a new status inside the request; the rest
are walked by background jobs, as is everyone when a status is deleted. Both sets
are ordered by the time they were joined, so a job's cursor is (score, how many
members at that exact score are done): exact even when many share one timestamp.

So that W workers share one big fan-out, its first job only splits it: it cuts the
rest into chunks of about FAN_OUT_JOB_SIZE members by score range (at the starts of
the followers' pieces, follow_sets.followers; fan_out_split.lua for a list's set) and queues
them all at once, each a job of its own that any worker may take. A chunk covers [its
cursor, the next chunk's first score), so the chunks partition the set; one that grew
meanwhile past FAN_OUT_JOB_SIZE carries on as a chain of its own. Both sets are read
across the followers' pieces (follow_sets.followers.queue_range: a list's set is one piece)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import user_key
from socialsite import jobs
from socialsite.redis import Batch, PackedPipeline, Reply, get_redis

from .. import keys
from ..follow_sets import followers as follower_sets
from ..follow_sets import members as member_sets
from ..follow_sets import options as follow_options
from ..statuses.records import Status
from ..statuses.scores import POSTED
from . import home_list, homes, scripts, tag_fanout
from .home_list import trims_homes
from .visibility import REPOST_FALLOFF, answered_uid, reaches_followers, reply_reaches

FollowerBatch = list[tuple[str, float]]


def _add_to_timeline(
    pipe, owner_key, timeline_key, status_id, score, size, repost_of, kind: str, once=False
) -> None:
    scripts.add_to_timeline(
        pipe,
        owner_key=owner_key,
        timeline_key=timeline_key,
        shown_reposts_key=keys.shown_reposts_key(timeline_key),
        status_id=status_id,
        score=score,
        size=size,
        repost_of=repost_of,
        falloff=REPOST_FALLOFF,
        kind=kind,
        once=once,
    )


def deliver(
    pipe: PackedPipeline,
    status_id: int,
    posted: float,
    follower_uids,
    home_size: int,
    *,
    repost_of=None,
    once: bool = False,
) -> None:
    """Queues on `pipe` the delivery of one status to each follower's home timeline (an
    LPUSH: feeds.home_list), with a trim if it is a status that trims (see trims_homes); a
    repost goes through add_to_timeline.lua, which applies REPOST_FALLOFF and trims. With
    `once` (a chunk redone after a crash, which may have reached some of these homes), a
    home that holds the status already is left as it is: a script a home, not an LPUSH."""
    trim = trims_homes(status_id)
    if repost_of:
        for uid in follower_uids:
            home = keys.home_timeline_key(uid)
            _add_to_timeline(
                pipe, user_key(uid), home, status_id, "", home_size, repost_of, "home", once
            )
    elif once:
        for home in map(keys.home_timeline_key, follower_uids):
            scripts.deliver_once(
                pipe, home_key=home, status_id=status_id, size=home_size, trim=trim
            )
    else:
        commands = home_list.delivery(status_id, home_size, trim=trim)
        pipe.for_each_key(map(keys.home_timeline_key, follower_uids), *commands)


def deliver_to_lists(
    pipe, status_id: int, posted: float, list_ids, size: int, *, repost_of=None, once=False
) -> None:
    """Queues on `pipe` the addition of one status to each list's timeline (a script, so a
    list deleted meanwhile isn't recreated); a sorted set, so a redone chunk (`once`)
    needs no more care."""
    score = POSTED.score(posted)
    for list_id in list_ids:
        timeline = keys.list_timeline_key(list_id)
        _add_to_timeline(
            pipe, keys.list_key(list_id), timeline, status_id, score, size, repost_of, "sorted"
        )


def retract(pipe: PackedPipeline, status_id: int, follower_uids) -> None:
    """Queues on `pipe` the removal of one status from each follower's home timeline."""
    pipe.for_each_key(map(keys.home_timeline_key, follower_uids), home_list.retraction(status_id))


def retract_from_lists(pipe: PackedPipeline, status_id: int, list_ids) -> None:
    """Queues on `pipe` the removal of one status from each list's timeline."""
    pipe.for_each_key(map(keys.list_timeline_key, list_ids), ("ZREM", status_id))


def queue_answered_followers(pipe, status: Status) -> Reply | None:
    """Queues the read of how many follow the user a reply answers (see answered_uid),
    which tells reply_audience where to ask: its handle (None for a status that reaches
    everyone)."""
    answered = answered_uid(status)
    if answered is None:
        return None
    return pipe.hget(user_key(answered), "followers")


def reply_audience(
    conn, status: Status, follower_uids: list[str], answered_followers: str | None = None
) -> list[str]:
    """The followers a status (or a fan-out job's args) reaches: for a reply, only the user
    it answers and those who follow them (asked of the answered user's followers in their
    slot, or of each one's following set if those are in many pieces, which
    `answered_followers`, queue_answered_followers' reply, tells: one round trip per
    batch, two if not told and many: follow_sets.followers.followers_among); for others,
    everyone."""
    if not reaches_followers(status):
        return []
    answered = answered_uid(status)
    if answered is None or not follower_uids:
        return follower_uids
    follows = follower_sets.followers_among(conn, follower_uids, answered, answered_followers)
    return [
        uid
        for uid, yes in zip(follower_uids, follows, strict=True)
        if reply_reaches(answered, int(uid), follows_answered=yes)
    ]


def followers_reach(
    conn, status: Status, follower_uids: list[str], answered_followers: str | None = None
) -> list[str]:
    """The followers a status reaches (reply_audience), but for a repost those who hide
    the reposter's reposts (follow_sets.options); for a group's post, those who
    may see the group's posts and get none from it as members: none for a private
    group's (its members get it as members), and only those not in the group for
    another's (1 round trip more: each one's groups hash)."""
    reached = reply_audience(conn, status, follower_uids, answered_followers)
    if status.get("repost_of") and reached:
        # Follow options (apinotif): not to those who keep the reposter's reposts out of
        # their home (1 round trip more, for a repost alone).
        hiding = follow_options.reposts_hidden_from(conn, status["uid"])
        reached = [uid for uid in reached if str(uid) not in hiding]
    group = status.get("group")
    if not group or not reached:
        return reached
    if status.get("group_private") == "1":
        return []
    states = _states(conn, reached, group)
    return [
        uid for uid, state in zip(reached, states, strict=True) if not state or not state.is_member
    ]


def members_reach(
    conn, status: Status, member_uids: list[str], quiet: list[str] | None = None
) -> list[str]:
    """The members of a status's group it reaches in their homes: all but those who
    turned "show in home" off (`quiet`, queue_quiet_members' reply) and its author
    (whose own home has it already); for a reply, as the reply rule narrows followers
    (reply_audience: 1 round trip)."""
    skipped = {str(status["uid"]), *(quiet or ())}
    return reply_audience(conn, status, [uid for uid in member_uids if str(uid) not in skipped])


def queue_quiet_members(pipe, status: Status) -> Reply:
    """Queues the read of the members of a status's group who turned "show in home" off."""
    return pipe.smembers(keys.group_quiet_key(status["group"]))


def _states(conn, uids: list[str], group) -> list:
    pipe = PackedPipeline(conn)
    read = member_sets.queue_states_of(pipe, uids, int(group))
    pipe.execute()
    return [member_sets.decode_state(value) for value in (read.value if read else [])]


def everyone(conn, status: Status, members: list[str]) -> list[str]:
    """Lists take every status of their members, replies too (not a direct one)."""
    return members if reaches_followers(status) else []


def no_reads(pipe, status: Status) -> None:
    """Lists' reach (everyone) reads nothing first."""
    return None


def list_chunk_starts(conn, members_key: str, after, skip: int, size: int, most: int) -> list:
    """Where chunks of about `size` of a listed-in set start after a cursor (one key:
    cut where the score changes, fan_out_split.lua): [more, start...]."""
    return scripts.fan_out_split(
        conn, members_key=members_key, after=after, skip=skip, size=size, most=most
    )


def follower_chunk_starts(conn, members_key: str, after, skip: int, size: int, most: int):
    """Where chunks of about `size` of the followers at `members_key` start after a
    cursor: at starts of their pieces (follow_sets.followers). [more, start...]."""
    return follower_sets.chunk_starts(conn, members_key, after, size, most)


@dataclass(frozen=True)
class Audience:
    members: Callable[[Any], str]  # the set to walk, from its owner (uid, group id, tag)
    reach: Callable  # (conn, status, members[, queue_reach's reply]) -> those it reaches
    queue_reach: Callable  # (pipe, status) -> the handle of the read reach needs, or None
    deliver: Callable
    retract: Callable
    chunk_starts: Callable  # (conn, members key, after, skip, size, most) -> [more, start...]
    owner: str = "uid"  # the job argument `members` takes: the author's uid, or the group's id
    to_homes: bool = True  # whether it delivers to home timelines (dropped homes skipped)


AUDIENCES = {
    "followers": Audience(
        keys.followers_key,
        followers_reach,
        queue_answered_followers,
        deliver,
        retract,
        follower_chunk_starts,
    ),
    "lists": Audience(
        keys.listed_in_key,
        everyone,
        no_reads,
        deliver_to_lists,
        retract_from_lists,
        list_chunk_starts,
        to_homes=False,
    ),
    # A group's post reaches its members' homes as posts reach followers' (the members
    # are kept as followers are: follow_sets.members).
    "members": Audience(
        keys.group_members_key,
        members_reach,
        queue_quiet_members,
        deliver,
        retract,
        follower_chunk_starts,
        owner="group",
    ),
    # A public status reaches its #tags' followers' homes, one job a tag (feeds.tag_fanout).
    "tags": Audience(
        keys.tag_followers_key,
        tag_fanout.reach,
        tag_fanout.queue_reach,
        tag_fanout.deliver,
        retract,
        list_chunk_starts,
        owner="tag",
    ),
}


def audiences_of(status: Status) -> list[str]:
    """The audiences a status goes to: a group's post to its members too."""
    # The "tags" audience's jobs are one a tag: tag_fanout.tag_jobs.
    return [
        name
        for name in ("followers", "lists", "members")
        if name != "members" or status.get("group")
    ]


def walked_key(audience: Audience, args: dict) -> str:
    """The key of the set a fan-out job (`args`) walks."""
    return audience.members(args[audience.owner])


# Chunks queued by one split job at most; past that, its last chunk splits again. Bounds
# the MULTI that queues them (100 chunks: 1,000,000 followers at the default job size).
CHUNKS_PER_SPLIT = 100


def fan_out_job(status: Status, *, retract: bool = False, audience: str = "followers") -> jobs.Job:
    """The job that splits the walk of all of the author's followers (or lists), from the
    first one, into chunks for the workers."""
    args = {
        "status_id": status["id"],
        "uid": status["uid"],
        "posted": status["posted"],
        "repost_of": status.get("repost_of"),
        "in_reply_to_uid": status.get("in_reply_to_uid"),
        "audience": audience,
        "group": status.get("group"),
        "group_private": status.get("group_private"),
        "visibility": status.get("visibility"),
    }
    cursor = {"after_score": "-inf", "skip": 0, "until": "+inf", "split": True}
    return ("fanout", {**args, "retract": retract, **cursor})


def fan_out_from(job: jobs.Job, cursor: list) -> jobs.Job | None:
    """`job` carried on from `cursor` ([follow time, members at that time already done],
    as follow_sets.followers.decode_range returns it), or None if `cursor` is empty (nothing
    left)."""
    if not cursor:
        return None
    kind, args = job
    return (kind, {**args, "after_score": float(cursor[0]), "skip": int(cursor[1])})


def rest_of_fan_out(
    job: jobs.Job, batch: FollowerBatch, per_pass: int | None = None
) -> jobs.Job | None:
    """The job for the followers after `batch` (the pass `job` just did), or None if
    `batch` wasn't a full pass (of POSTS_PER_PASS, unless `per_pass`) and so reached the end."""
    if len(batch) < (per_pass or settings.POSTS_PER_PASS):
        return None
    kind, args = job
    last_score = batch[-1][1]
    ties = sum(1 for _, score in batch if score == last_score)
    if last_score == float(args["after_score"]) and ties == len(batch):
        ties += args["skip"]
    return (kind, {**args, "after_score": last_score, "skip": ties})


def split_fan_out(conn, args: dict) -> list[jobs.Job]:
    """The chunk jobs that share out the rest of a fan-out from `args`' cursor (the last
    one splits again if CHUNKS_PER_SPLIT were not enough), or [] if one job is enough."""
    audience = AUDIENCES[args["audience"]]
    more, *cuts = audience.chunk_starts(
        conn,
        walked_key(audience, args),
        args["after_score"],
        args["skip"],
        settings.FAN_OUT_JOB_SIZE,
        CHUNKS_PER_SPLIT - 1,
    )
    if not cuts:
        return []
    starts = [(args["after_score"], args["skip"]), *((cut, 0) for cut in cuts)]
    ends = [*cuts, args["until"]]
    chunks = [
        {**args, "after_score": score, "skip": skip, "until": until, "split": False}
        for (score, skip), until in zip(starts, ends, strict=True)
    ]
    chunks[-1]["split"] = bool(more)
    return [("fanout", chunk) for chunk in chunks]


# A follower whose follow time is this close before a status's (or later) may have got
# it from the follow's own copy (add_follower.lua reads the profile, which the post wrote
# before its job ran): a job checks such a follower's home before it pushes. Follow times
# are whole seconds, taken a moment before the follow's step 1; the margin covers a slow
# request between the two. Most chunks of a big fan-out hold no such follower.
FOLLOW_COPY_MARGIN_SECONDS = 60


def queue_late_followers(
    reads: Batch, args: dict, members_key: str, below: str, size: int
) -> follower_sets.RangeRead | None:
    """Queues the read of the followers of a chunk (`args`) who followed late enough to
    have its status from their follow's copy; None if it can hold none (lists, a
    retraction, a chunk that ends before then)."""
    if args["retract"] or args["audience"] != "followers":
        return None
    since = int(float(args["posted"])) - FOLLOW_COPY_MARGIN_SECONDS
    if args["until"] != "+inf" and float(args["until"]) <= since:
        return None
    after, skip = args["after_score"], args["skip"]
    if float(after) < since:
        after, skip = since, 0
    return follower_sets.queue_range(reads, members_key, after, skip, below, size)


def checked_groups(reached: list[str], late: set[str]) -> list[tuple[list[str], bool]]:
    """`reached` as (followers, whether their homes are checked before the push): all of
    them in a chunk redone after a crash, else the `late` followers alone."""
    if jobs.redoing():
        # Only a chunk taken over from a worker that died in it may find its status in
        # any home: a first run pays for no check but the late followers'.
        return [(reached, True)]
    if not late:
        return [(reached, False)]
    return [
        ([uid for uid in reached if uid not in late], False),
        ([uid for uid in reached if uid in late], True),
    ]


@jobs.handler("fanout")
def fan_out_batch(args: dict) -> list[jobs.Job]:
    """Splits a big fan-out into chunk jobs, or delivers to (retracts from) the next
    FAN_OUT_JOB_SIZE followers or lists of a chunk; idempotent."""
    # Jobs queued before chunks existed have no end: they run to the end of the set.
    args = {"until": "+inf", "split": False, **args}
    audience = AUDIENCES[args["audience"]]
    size = settings.FAN_OUT_JOB_SIZE
    walked = walked_key(audience, args)
    conn = get_redis()
    if args["split"]:
        chunks = split_fan_out(conn, args)
        if chunks:
            return chunks
    # A chunk ends just before the next one's first score.
    below = "+inf" if args["until"] == "+inf" else f"({args['until']}"
    reads = Batch(conn)
    exists = reads.exists(keys.status_key(args["status_id"]))
    reach = None if args["retract"] else audience.queue_reach(reads, args)
    # Where the uids are, and the next job's cursor; then the uids alone, by plain reads
    # (with their scores, or through a script, Redis and the client spend longer on
    # reading them than on the deliveries): for a set never cut, read beside the plan.
    walk = follower_sets.queue_walk(reads, walked, args["after_score"], args["skip"], below, size)
    # A chunk redone checks every home: it needs no list of the late followers.
    late = None if jobs.redoing() else queue_late_followers(reads, args, walked, below, size)
    reads.execute()
    members, cursor = follower_sets.walk(conn, walk)
    pipe = PackedPipeline(conn)
    if args["retract"]:
        audience.retract(pipe, args["status_id"], members)
    elif exists.value:
        reached = audience.reach(conn, args, members, *([] if reach is None else [reach.value]))
        if audience.to_homes:
            reached = homes.with_homes(conn, reached)
        late_uids = set(follower_sets.decode_range(late)[0]) if late else set()
        for uids, once in checked_groups(reached, late_uids):
            audience.deliver(
                pipe,
                args["status_id"],
                args["posted"],
                uids,
                settings.HOME_TIMELINE_SIZE,
                repost_of=args["repost_of"],
                once=once,
            )
    else:
        return []  # deleted meanwhile: the deletion's own job retracts it
    pipe.execute()
    rest = fan_out_from(("fanout", args), cursor)
    return [rest] if rest else []
