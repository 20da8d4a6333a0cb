"""Safety settings a user keeps for themselves: a private account and its follow
requests, blocks, mutes and muted words. (Reports to the operators are in reports.py.)

Every two-user change is separate idempotent steps, one per user's slot, so the same
code runs on Redis Cluster: a block records itself in the blocker's slot, then in the
blocked user's, then removes the follows both ways (timeline.graph's unfollow, whose
steps take each one's statuses out of the other's home) and each from the other's lists
(timeline.lists, whose job refills them). Going private or public marks the user's
existing statuses by a background job, batch by batch, as Twitter's switch does: going
private hides them from everyone but approved followers; going public shows them again
and approves the pending requests."""

import math
import time

from django.conf import settings

from accounts import filters as user_filters
from accounts.keys import user_key
from accounts.records import UserProfile
from accounts.services import get_user
from socialsite import events, jobs
from socialsite.redis import Client, get_redis
from socialsite.text import words

from .. import keys
from ..graph.services import approve_follower, drop_request, unfollow_user
from ..lists import services as lists
from ..statuses import visibility
from ..statuses.services import queue_update

MUTED_PHRASES_MAX = 100
MUTED_PHRASE_MAX_BYTES = 60  # as a track phrase
# Mute durations offered (seconds; 0: until unmuted).
MUTE_DURATIONS = {0: "until I unmute", 3600: "1 hour", 86400: "1 day", 7 * 86400: "7 days"}


def _other(uid: int, other_uid: int, doing: str) -> UserProfile:
    if int(uid) == int(other_uid):
        raise ValueError(f"You can't {doing} yourself.")
    other = get_user(other_uid)
    if other is None:
        raise ValueError("No such user.")
    return other


# Private accounts and follow requests


def set_private(uid: int, private: bool) -> bool:
    """Makes `uid`'s account private or public; True if that changed it. Their statuses
    are marked to match by a job (`mark_privacy`); going public also approves the
    pending follow requests (`approve_requests`)."""
    conn = get_redis()
    # HSET answers 1 only for a new field, HDEL only for one it removed: only "1" is stored.
    if private:
        changed = conn.hset(user_key(uid), keys.PRIVATE_FIELD, "1")
    else:
        changed = conn.hdel(user_key(uid), keys.PRIVATE_FIELD)
    if not changed:
        return False
    pipe = conn.pipeline(transaction=False)
    jobs.enqueue(pipe, ("mark_privacy", {"uid": int(uid), "after": "-inf"}))
    if not private:
        jobs.enqueue(pipe, ("approve_requests", {"uid": int(uid)}))
    pipe.execute()
    return True


@jobs.handler("mark_privacy")
def mark_privacy_batch(args: dict) -> list[jobs.Job]:
    """Marks the next POSTS_PER_PASS statuses on a user's profile (oldest first, from
    the score `after`) private or not, as the account is now; idempotent, and a later
    switch's job converges on the same state since each pass reads it afresh."""
    uid, per_pass = args["uid"], settings.POSTS_PER_PASS
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), keys.PRIVATE_FIELD)
    pipe.zrangebyscore(
        keys.profile_timeline_key(uid), args["after"], "+inf", 0, per_pass, withscores=True
    )
    private, batch = pipe.execute()
    # A group's post is as private as its group, whatever its author's account; a
    # followers-only or direct one stays private whatever the account (vis).
    for status_id, _ in batch:
        pipe.hmget(keys.status_key(status_id), "group", visibility.VISIBILITY_FIELD)
    in_group = pipe.execute()
    for (status_id, _), (group, code) in zip(batch, in_group, strict=True):
        if group:
            continue
        limited = visibility.NAMES.get(code or "") in visibility.LIMITED
        # A status has its own slot: one command each, none for one deleted meanwhile,
        # and the processes keeping it (statuses.cache) are told.
        queue_update(pipe, status_id, [keys.PRIVATE_FIELD, "1" if limited else private or ""])
    pipe.execute()
    if len(batch) < per_pass:
        return []
    return [("mark_privacy", {"uid": uid, "after": batch[-1][1]})]


@jobs.handler("approve_requests")
def approve_requests_batch(args: dict) -> list[jobs.Job]:
    """Approves the next POSTS_PER_PASS pending requests of a user who went public (none
    if they went private again since); idempotent."""
    uid = args["uid"]
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), keys.PRIVATE_FIELD)
    pipe.zrange(keys.follow_requests_key(uid), 0, settings.POSTS_PER_PASS - 1)
    private, requesters = pipe.execute()
    if private == "1" or not requesters:
        return []
    for requester in requesters:
        try:
            approve_follower(uid, int(requester))
        except ValueError:
            # Blocked or deleted since they asked: the request goes, so the job moves on.
            drop_request(int(requester), uid)
    return [("approve_requests", {"uid": uid})]


def approve_request(uid: int, requester_uid: int) -> None:
    """`uid` lets `requester_uid` follow them; ValueError if they didn't ask."""
    if not approve_follower(uid, requester_uid):
        raise ValueError("There is no such follow request.")


def reject_request(uid: int, requester_uid: int) -> None:
    """`uid` turns down `requester_uid`'s request; ValueError if they didn't ask."""
    if not drop_request(requester_uid, uid):
        raise ValueError("There is no such follow request.")


def remove_follower(uid: int, follower_uid: int) -> bool:
    """`uid` removes a follower (who stops following them, and loses their statuses from
    home): True; False if they weren't following."""
    return bool(unfollow_user(follower_uid, uid))


# Blocks


def block(uid: int, other_uid: int) -> bool:
    """`uid` blocks `other_uid`: True; False if they already did. The follows both ways
    and any follow requests go, and each leaves the other's lists; the two of them no
    longer see each other's statuses. ValueError for yourself or an unknown user."""
    other = _other(uid, other_uid, "block")
    uid, other_uid = int(uid), other["id"]
    added = do_block(get_redis(), uid, other_uid)
    # Both ways, even when the block existed: a redone block finishes what one cut short.
    cut_ties(uid, other_uid)
    return added


def do_block(conn: Client, uid: int, other_uid: int) -> bool:
    """Records the block in the blocker's slot, then in the blocked user's, with their
    follow requests both ways gone (2 round trips, each command idempotent): whether it
    is new."""
    now = time.time()
    pipe = conn.pipeline(transaction=False)
    pipe.zadd(keys.blocks_key(uid), {other_uid: now}, nx=True)
    pipe.zrem(keys.requested_key(uid), other_uid)
    pipe.zrem(keys.follow_requests_key(uid), other_uid)
    added, _unrequested, _request_dropped = pipe.execute()
    pipe.zadd(keys.blocked_by_key(other_uid), {uid: now}, nx=True)
    pipe.zrem(keys.requested_key(other_uid), uid)
    pipe.zrem(keys.follow_requests_key(other_uid), uid)
    # Once both slots hold it: open streams of either apply it from this event on.
    events.publish(pipe, events.block_changed("block", uid, other_uid, now))
    pipe.execute()
    return bool(added)


def cut_ties(uid: int, other_uid: int) -> None:
    """What a block undoes, by the services that publish it: the follows both ways
    (timeline.graph's unfollow and its events) and each from the other's lists."""
    unfollow_user(uid, other_uid)
    unfollow_user(other_uid, uid)
    lists.leave_lists_of(other_uid, uid)
    lists.leave_lists_of(uid, other_uid)


def unblock(uid: int, other_uid: int) -> bool:
    """`uid` lifts their block of `other_uid`: True; False if there was none. (The
    follows it removed stay removed, as on Twitter.)"""
    pipe = get_redis().pipeline(transaction=False)
    pipe.zrem(keys.blocks_key(uid), other_uid)
    pipe.zrem(keys.blocked_by_key(other_uid), uid)
    events.publish(pipe, events.block_changed("unblock", int(uid), int(other_uid), time.time()))
    removed, _unmarked, _published = pipe.execute()
    return bool(removed)


# Mutes


def mute(uid: int, other_uid: int, duration: int = 0) -> None:
    """`uid` mutes `other_uid` for `duration` seconds (0: until unmuted): their statuses
    and reposts leave `uid`'s home and live timeline; nothing else changes. ValueError
    for yourself, an unknown user or a duration not offered."""
    _other(uid, other_uid, "mute")
    if duration not in MUTE_DURATIONS:
        raise ValueError("Choose how long to mute them from the list.")
    ends = time.time() + duration if duration else math.inf
    get_redis().zadd(keys.mutes_key(uid), {int(other_uid): ends})


def unmute(uid: int, other_uid: int) -> bool:
    """`uid` lifts a mute: True; False if there was none."""
    return bool(get_redis().zrem(keys.mutes_key(uid), other_uid))


def check_muted_words(text: str) -> list[str]:
    """The phrases of `text` (one a line), each once; ValueError naming what is wrong."""
    phrases = list(dict.fromkeys(line.strip() for line in (text or "").splitlines()))
    phrases = [phrase for phrase in phrases if phrase]
    if len(phrases) > MUTED_PHRASES_MAX:
        raise ValueError(f"Mute at most {MUTED_PHRASES_MAX} phrases, not {len(phrases)}.")
    for phrase in phrases:
        if len(phrase.encode()) > MUTED_PHRASE_MAX_BYTES:
            raise ValueError(
                f"The phrase {phrase[:20]!r}... is longer than {MUTED_PHRASE_MAX_BYTES} bytes."
            )
        if not words(phrase):
            raise ValueError(f"The phrase {phrase!r} has no words.")
    return phrases


def set_muted_words(uid: int, text: str) -> list[str]:
    """Replaces `uid`'s muted phrases with those of `text` (one a line); returns them.
    They are the keywords of the user's "Muted words" filter (accounts.filters: home,
    hide, whole words), so a status hides from home when it has all the words of a
    phrase (as the streaming API's track matches). ValueError (nothing changes) for bad
    phrases."""
    phrases = check_muted_words(text)
    user_filters.set_muted_words(uid, phrases)
    return phrases


def muted_words(uid: int) -> list[str]:
    return user_filters.muted_words(uid)
