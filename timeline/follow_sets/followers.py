"""A user's followers in pieces, so that a follower set of any size stays compact.

A sorted set of up to zset-max-ziplist-entries is a listpack (~12 B a follower); past
that a skiplist (~100 B). So followers are their followers key alone until they number
more than FOLLOWERS_PIECE_SIZE; then newer follows go to pieces of at most that many,
each holding a range of follow times (lua/lib/pieces.lua), all in the user's slot. Every
read and write of followers goes through here (each script of lua/ by one function
below, its keys and arguments named) or the scripts that include lua/lib/pieces.lua: a
piece is found by a follow time, which the follower's own following set holds (the same
score), so "does X follow Y" is asked of X's following set (follow_sets.following).
"Which of these follow Y" is asked in Y's slot of Y's followers while they are in a few
pieces (followers_among.lua), else of each one's following set."""

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import hash_tag_id, user_key
from socialsite.redis import Batch, PackedPipeline, Pipe, Reply, get_redis, sorted_sets_over
from socialsite.scripts import LuaScripts

from .. import keys
from . import following

scripts = LuaScripts(__file__)

# Pieces cut from one key in one script call by split_followers (the rest in the next).
PIECES_PER_SPLIT = 100
# followers_among.lua reads followers in at most this many pieces besides the followers
# key (2,250 followers at the default size); past that each one asked is asked of their
# following set instead (follows_of).
PIECES_READ = 8
# ZMSCORE walks a listpack once a member asked: for more than this many asked, every
# follower is read instead and each asked looked up among them (the two cost Redis the
# same at ~10 asked of a piece).
ASKED_BY_ZMSCORE = 8


@dataclass(frozen=True, slots=True)
class RangeRead:
    """A `queue_range` read: `decode_range` finishes it."""

    reply: Reply
    withscores: bool = False


def queue_range(
    pipe: Pipe,
    key: str,
    after: str | float = "-inf",
    skip: int = 0,
    below: str = "+inf",
    count: int = 1000,
    *,
    withscores: bool = False,
) -> RangeRead:
    """Queues on `pipe` (a Batch or a PackedPipeline) the read of the followers at `key`
    (keys.followers_key; or any sorted set never cut, as lists' listed-in sets) in follow
    order from a cursor (a follow time and how many at that time are done) to `below` (a
    ZRANGEBYSCORE max), at most `count`, each with its follow time if `withscores`."""
    reply = _followers_range(
        pipe,
        followers_key=key,
        after=after,
        skip=skip,
        below=below,
        count=count,
        withscores=withscores,
    )
    return RangeRead(reply, withscores)


def decode_range(read: RangeRead) -> tuple[list, list]:
    """A queue_range read as (its followers, or (follower, follow time) pairs if read with
    scores; where the next read starts: [follow time, how many at that time are done], or
    [] if none are left)."""
    followers, cursor = _range_reply(read.reply.value)
    if read.withscores:
        each = iter(followers)
        followers = list(zip(each, each, strict=True))
    return followers, cursor


def read_range(conn, key: str, after, skip: int, below: str, count: int) -> tuple[list, list]:
    """Runs a read as queue_range's (no scores) and decodes it: 1 round trip."""
    reply = _followers_range(
        conn, followers_key=key, after=after, skip=skip, below=below, count=count, withscores=False
    )
    return _range_reply(reply)


def _range_reply(reply: list) -> tuple[list, list]:
    more, score, ties, *followers = reply
    return followers, [score, ties] if more else []


@dataclass(frozen=True, slots=True)
class WalkRead:
    """A `queue_walk` read: where it walks (the followers key and a cursor to `below`, at
    most `count`), its plan, and what the followers key alone holds of it; `walk`
    finishes it."""

    key: str
    after: str | float
    skip: int
    below: str
    count: int
    plan: Reply
    in_key: Reply


def queue_walk(pipe: Pipe, key: str, after, skip: int, below: str, count: int) -> WalkRead:
    """Queues on `pipe` (a Batch or a PackedPipeline) the plan of a read as queue_range's
    (followers_plan.lua) and, read beside it, what the followers key alone holds of it
    (plain, as the plan reads a set never cut). Finish it with `walk`. A fan-out job's
    way: its followers come back by plain reads."""
    plan = _followers_plan(
        pipe, followers_key=key, after=after, skip=skip, below=below, count=count
    )
    in_key = pipe.zrangebyscore(key, after, below, start=skip, num=count)
    return WalkRead(key, after, skip, below, count, plan, in_key)


def walk(conn, read: WalkRead) -> tuple[list, list]:
    """The followers a `queue_walk` read plans to read, and where the next read starts
    (as decode_range). The followers key's part of the plan is read already, in
    queue_walk's round trip: all of a set never cut (no pieces: most users' followers, a
    list's members); the pieces' parts take 1 round trip more. If a piece changed between
    the two (a follow cut it: a read comes back short), read again as queue_range does,
    in one script."""
    key, after, skip, below, count = read.key, read.after, read.skip, read.below, read.count
    more, score, ties, *reads = read.plan.value
    planned = [reads[i : i + 4] for i in range(0, len(reads), 4)]
    cursor = [score, ties] if more else []
    if not planned:
        return [], cursor
    done = []
    if planned[0][0] == key:
        # The followers key's read is always from the cursor: done beside the plan (with
        # any follow made since past the plan's end, not taken).
        wanted, in_key = planned[0][3], read.in_key.value
        if len(in_key) < wanted:
            return read_range(conn, key, after, skip, below, count)
        done, planned = in_key[:wanted], planned[1:]
        if not planned:
            return done, cursor
    batch = Batch(conn)
    pieces = [
        (batch.zrangebyscore(piece, low, below, start=offset, num=wanted), wanted)
        for piece, low, offset, wanted in planned
    ]
    batch.execute()
    if any(len(piece.value) != wanted for piece, wanted in pieces):
        return read_range(conn, key, after, skip, below, count)
    return done + [uid for piece, _ in pieces for uid in piece.value], cursor


def page_ids(client, uid: int, page: int, count: int) -> list:
    """Uids of page `page` (from 1) of `uid`'s followers, newest follow first, and one
    more if an older page exists: 1 round trip."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    return run_page(
        client, set_key=keys.followers_key(uid), offset=(page - 1) * count, count=count + 1
    )


def chunk_starts(conn, key: str, after, size: int, most: int) -> list:
    """Where chunks of about `size` of the followers at `key` after the cursor time
    `after` start (piece starts), at most `most`: [more, start...] (followers_cuts.lua)."""
    return _followers_cuts(conn, followers_key=key, after=after, size=size, most=most)


def forget(client, uid: int, followers: list[tuple]) -> Any:
    """Queues (or runs) the removal of `followers` ((uid, follow time) pairs) from
    `uid`'s followers, and from their count."""
    return _forget_followers(client, uid=uid, followers=followers)


def split(conn, uid: int) -> int:
    """Cuts `uid`'s followers key into pieces if it holds more than a piece (a set made
    before pieces, or in bulk): how many pieces were made. Idempotent."""
    made = 0
    while True:
        now = run_split(conn, set_key=keys.followers_key(uid), pieces=PIECES_PER_SPLIT)
        made += now
        if now < PIECES_PER_SPLIT:
            return made


def add_in_bulk(conn, uid: int, followers: dict) -> None:
    """Writes `followers` (uid -> follow time) among `uid`'s at once and cuts them into
    pieces as follows one by one would have made them (a seed's bulk write; the count is
    the caller's)."""
    conn.zadd(keys.followers_key(uid), followers)
    split(conn, uid)


def piece_starts(conn, uid: int) -> list[str]:
    """The follow times where each piece of `uid`'s followers starts, oldest first; none
    while the followers key holds them all (how a set was cut, for checks and tests)."""
    return conn.zrange(keys.follower_pieces_key(uid), 0, -1)


def all_keys(conn, uid: int) -> list[str]:
    """Every key of `uid`'s followers: the followers key, its pieces and their index."""
    return [*piece_keys(conn, uid), keys.follower_pieces_key(uid)]


def queue_followers_among(client, candidates: list, uid: int) -> Any:
    """Queues (or runs) the read of whether each of `candidates` follows `uid`, in
    `uid`'s slot (followers_among.lua): for up to ASKED_BY_ZMSCORE a 1 or 0 each, for more
    all of `uid`'s followers; None if they are in more than PIECES_READ pieces (then
    following.follows_of). Finish it with among_reply. Not for an empty `candidates`."""
    asked = candidates if len(candidates) <= ASKED_BY_ZMSCORE else []
    return _followers_among(client, uid=uid, pieces_read=PIECES_READ, asked=asked)


def among_reply(conn, candidates: list, uid: int, reply: list | None) -> list[bool]:
    """A queue_followers_among reply as whether each of `candidates` follows `uid`: if it
    read nothing (too many pieces), asked of their following sets (follows_of), one
    round trip."""
    if reply is None:
        return following.follows_of(conn, candidates, uid)
    if len(candidates) <= ASKED_BY_ZMSCORE:
        return [flag == 1 for flag in reply]
    followers = set(reply)
    return [str(candidate) in followers for candidate in candidates]


def followers_among(conn, candidates: list, uid: int, followers=None) -> list[bool]:
    """Which of `candidates` follow `uid`: 1 round trip (none if empty), in `uid`'s slot
    or, given `followers` (their count, as a number or text) past what it reads, of the
    candidates' following sets (queue_who_follow); not given it, in the slot first (2
    round trips if their followers are in more than PIECES_READ pieces: among_reply)."""
    if not candidates:
        return []
    pipe = PackedPipeline(conn)
    read = queue_who_follow(pipe, candidates, uid, int(followers or 0))
    pipe.execute()
    return who_follow(conn, read)


@dataclass(frozen=True, slots=True)
class WhoFollowRead:
    """A `queue_who_follow` read: the candidates and the user asked about, and the read
    queued, in the user's slot (`in_slot`) or of each candidate's following set
    (`of_each`); neither for no candidates. `who_follow` finishes it."""

    candidates: list
    uid: int
    in_slot: Reply | None = None
    of_each: following.FollowsOfRead | None = None


def queue_who_follow(
    pipe: PackedPipeline, candidates: list, uid: int, followers: int
) -> WhoFollowRead:
    """Queues whether each of `candidates` follows `uid`, who has `followers` (their
    profile's count): in `uid`'s slot (queue_followers_among), unless so many that they
    are surely in more than PIECES_READ pieces (more than that many full pieces and the
    followers key hold): then of each one's following set (following.queue_follows_of).
    Nothing if `candidates` is empty."""
    if not candidates:
        return WhoFollowRead(candidates, uid)
    if followers <= (PIECES_READ + 1) * settings.FOLLOWERS_PIECE_SIZE:
        return WhoFollowRead(candidates, uid, in_slot=queue_followers_among(pipe, candidates, uid))
    return WhoFollowRead(candidates, uid, of_each=following.queue_follows_of(pipe, candidates, uid))


def who_follow(conn, read: WhoFollowRead) -> list[bool]:
    """Whether each of a `queue_who_follow` read's candidates follows its user (2 round
    trips if asked in their slot and their followers are in too many pieces:
    among_reply)."""
    if read.in_slot is not None:
        return among_reply(conn, read.candidates, read.uid, read.in_slot.value)
    if read.of_each is None:
        return []
    return [score is not None for score in following.scores_of(read.of_each)]


def queue_score(client, uid: int, follower, followed_at) -> Any:
    """Queues (or runs) the read of `follower`'s follow time among `uid`'s followers,
    looked for in the piece of `followed_at` (their following set's score; "+inf" if
    not known: the newest piece)."""
    return run_edge(
        client,
        set_key=keys.followers_key(uid),
        change="score",
        follower=follower,
        followed_at=followed_at,
    )


def queue_add(client, uid: int, follower, followed_at) -> Any:
    """Queues (or runs) putting `follower` among `uid`'s followers at `followed_at`, in
    its piece (a repair or a bulk write: the count is the caller's)."""
    return run_edge(
        client,
        set_key=keys.followers_key(uid),
        change="add",
        follower=follower,
        followed_at=followed_at,
    )


def queue_remove(client, uid: int, follower, followed_at) -> Any:
    """Queues (or runs) taking `follower`, followed at `followed_at`, out of `uid`'s
    followers (a repair: the count is the caller's)."""
    return run_edge(
        client,
        set_key=keys.followers_key(uid),
        change="remove",
        follower=follower,
        followed_at=followed_at,
    )


def piece_keys(conn, uid: int) -> list[str]:
    """The keys that hold `uid`'s followers: the followers key and its pieces."""
    starts = conn.zrange(keys.follower_pieces_key(uid), 0, -1)
    return [keys.followers_key(uid), *(keys.follower_piece_key(uid, s) for s in starts)]


def split_every_big_set(batch: int = 1000) -> tuple[int, int]:
    """Cuts every follower set kept in one key past FOLLOWERS_PIECE_SIZE (made before
    pieces) into pieces: (sets cut, pieces made). Idempotent: `manage.py split_followers`."""
    conn, cut, made = get_redis(), 0, 0
    size = settings.FOLLOWERS_PIECE_SIZE
    for name in sorted_sets_over(conn, keys.FOLLOWERS_PATTERN, size, batch):
        cut += 1
        made += split(conn, hash_tag_id(name))
    return cut, made


def queue_follow(
    client, uid: int, *, follower: int, since: int, newest: int, approving: bool, followed_at
) -> Any:
    """Queues (or runs) a follow's step 1 in `uid`'s slot (add_follower.lua): `follower`
    joins `uid`'s followers at `followed_at` (their following set's score; None: not
    following yet, so `since`) unless either blocks the other or `uid` is private and
    hasn't approved them (`approving`: the approval of a request). Replies [`uid`'s
    login, their `newest` profile entries (flat id, score), the outcome: "followed",
    "requested", "blocked" or "no_request", "1" if private], or [] for an unknown user."""
    return scripts.run(
        client,
        "add_follower",
        [
            user_key(uid),
            keys.followers_key(uid),
            keys.profile_timeline_key(uid),
            keys.blocks_key(uid),
            keys.blocked_by_key(uid),
            keys.follow_requests_key(uid),
        ],
        [
            follower,
            since,
            newest,
            "1" if approving else "0",
            "" if followed_at is None else followed_at,
            settings.FOLLOWERS_PIECE_SIZE,
        ],
    )


def queue_unfollow(client, uid: int | str, *, follower: int, followed_at, newest: int) -> Any:
    """Queues (or runs) an unfollow's step 1 in `uid`'s slot (remove_follower.lua):
    `follower`, who followed at `followed_at` ("+inf" if not known), leaves `uid`'s
    followers and their count. Replies [`uid`'s login, their `newest` profile ids], or
    [] for an unknown user."""
    return scripts.run(
        client,
        "remove_follower",
        [user_key(uid), keys.followers_key(uid), keys.profile_timeline_key(uid)],
        [follower, newest, followed_at],
    )


# One function a script: its keys and arguments by name.


def _followers_range(
    client, *, followers_key: str, after, skip: int, below, count: int, withscores: bool
) -> Any:
    return scripts.run(
        client,
        "followers_range",
        [followers_key],
        [after, skip, below, count, "1" if withscores else "0"],
    )


def _followers_plan(client, *, followers_key: str, after, skip: int, below, count: int) -> Any:
    return scripts.run(client, "followers_plan", [followers_key], [after, skip, below, count])


def run_page(client, *, set_key: str, offset: int, count: int) -> Any:
    """followers_page.lua on a set kept in pieces (a user's followers, a group's members)."""
    return scripts.run(
        client,
        "followers_page",
        [set_key],
        [offset, count, settings.FOLLOWERS_PIECE_SIZE],
    )


def _followers_cuts(client, *, followers_key: str, after, size: int, most: int) -> Any:
    return scripts.run(client, "followers_cuts", [followers_key], [after, size, most])


def _forget_followers(client, *, uid: int, followers: list[tuple]) -> Any:
    pairs = [value for pair in followers for value in pair]
    return scripts.run(client, "forget_followers", [user_key(uid), keys.followers_key(uid)], pairs)


def run_split(client, *, set_key: str, pieces: int) -> int:
    """split_followers.lua on a set kept in pieces: cuts up to `pieces` new pieces."""
    return scripts.run(
        client,
        "split_followers",
        [set_key],
        [settings.FOLLOWERS_PIECE_SIZE, pieces],
    )


def _followers_among(client, *, uid: int, pieces_read: int, asked: list) -> Any:
    return scripts.run(
        client,
        "followers_among",
        [keys.followers_key(uid)],
        [pieces_read, settings.FOLLOWERS_PIECE_SIZE, *asked],
    )


def run_edge(client, *, set_key: str, change: str, follower, followed_at) -> Any:
    """follower_edge.lua on a set kept in pieces: "score", "add" or "remove" one member."""
    # "add" cuts a new piece past the piece size; "score" and "remove" don't read it.
    size = [settings.FOLLOWERS_PIECE_SIZE] if change == "add" else []
    return scripts.run(client, "follower_edge", [set_key], [change, follower, followed_at, *size])
