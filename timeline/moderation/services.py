"""Deleting a user with everything they posted: the purge that follows
accounts.services.close_account (the admin's "Delete user", or deleting the Django user).

Deleting a user touches everyone who follows them or whom they follow, so only
the first step runs in the request: close_account suspends them (their statuses
vanish from every page at once) and frees their login and Django user, and its
account_closed signal queues a durable job that takes it from there, one batch per
job, through these phases:
  followers    detach each follower, taking the user's statuses out of their home
  memberships  leave the lists they are on, taking their statuses out of those
               timelines (before the statuses go: their ids say what to take out)
  groups       leave the groups they joined and withdraw their requests (a group
               they own keeps them as its owner)
  statuses     delete each status as a moderator would (hash, timelines, mentions,
               tags, replies, reposts of it, likes of it, event)
  likes        take back their likes, so those statuses' counts and likers stay right
  keeps        take back their bookmarks and followed tags (the statuses' and tags' sides)
  lists        delete their lists, with the members' "listed in" entries
  following    unfollow everyone they follow, so those users' counts stay right
  profile      drop the profile hash and the user's now-empty keys
Each step re-reads what is left and is idempotent, so a job redone after a
crash is harmless. Keys of two users are never written in one step (they are in
different cluster slots): each such step changes one side, then the other."""

from django.conf import settings
from django.dispatch import receiver

from accounts.keys import SUSPENDED_USERS, filters_key, markers_key, user_key
from accounts.services import account_closed, get_users
from socialsite import jobs
from socialsite.redis import Batch, get_redis

from .. import keys
from ..follow_sets import followers as follower_sets
from ..follow_sets import following
from ..follow_sets import options as follow_options
from ..graph.services import losing_follower, unfollowing
from ..groups import services as groups
from ..keeps import services as keeps
from ..lists import services as lists
from ..notifications import services as notifications
from ..posting.services import remove_status
from ..reactions import services as reactions

PURGE_BATCH = 200
PURGE_PHASES = (
    "followers",
    "memberships",
    "groups",
    "statuses",
    "likes",
    "keeps",
    "lists",
    "following",
    "follow_options",
    "profile",
)


@receiver(account_closed)
def purge_closed_account(sender, uid: int, **kwargs) -> None:
    """Queues the purge of everything a closed account posted, followed, liked and listed."""
    jobs.enqueue(get_redis(), ("purge_user", {"uid": int(uid), "phase": PURGE_PHASES[0]}))


@jobs.handler("purge_user")
def purge_user_batch(args: dict) -> list[jobs.Job]:
    """Runs one batch of a user's deletion; the follow-up job continues where it stopped."""
    uid = int(args["uid"])
    for phase in PURGE_PHASES[PURGE_PHASES.index(args["phase"]) :]:
        if _PURGE_STEPS[phase](uid):
            return [("purge_user", {"uid": uid, "phase": phase})]
    return []


def _detach_followers(uid: int) -> bool:
    conn = get_redis()
    reads = Batch(conn)
    login = reads.hget(user_key(uid), "login")
    private = reads.hget(user_key(uid), keys.PRIVATE_FIELD)
    first = follower_sets.queue_range(
        reads, keys.followers_key(uid), count=PURGE_BATCH, withscores=True
    )
    # What unfollowing would take out of a home: the newest HOME_TIMELINE_SIZE.
    status_ids = reads.zrevrange(keys.profile_timeline_key(uid), 0, settings.HOME_TIMELINE_SIZE - 1)
    reads.execute()
    followers, _ = follower_sets.decode_range(first)
    if not followers:
        return False
    pipe = conn.pipeline(transaction=False)
    for profile in get_users([int(f) for f, _ in followers]):
        follower = {"id": profile["id"], "login": profile["login"]}
        followed = {"id": uid, "login": login.value}
        unfollowing(pipe, follower, followed, status_ids.value, private=private.value == "1")
    follower_sets.forget(pipe, uid, followers)
    pipe.execute()
    return True


def _delete_statuses(uid: int) -> bool:
    conn = get_redis()
    status_ids = conn.zrange(keys.profile_timeline_key(uid), 0, PURGE_BATCH - 1)
    for status_id in status_ids:
        if remove_status(int(status_id)) is None:
            # An id whose hash is already gone stays behind: drop it, or this never ends.
            conn.zrem(keys.profile_timeline_key(uid), status_id)
    return bool(status_ids)


def _unfollow_everyone(uid: int) -> bool:
    conn = get_redis()
    follows = following.pairs(following.queue_from(conn, uid, "-inf", 0, PURGE_BATCH))
    if not follows:
        return False
    # unfollow_user's two steps for the whole batch, 2 round trips, without the job
    # that would refill a home about to go.
    steps = Batch(conn)
    own_login = steps.hget(user_key(uid), "login")
    private = steps.hget(user_key(uid), keys.PRIVATE_FIELD)
    lost = [(other, losing_follower(steps, other, uid, at)) for other, at in follows]
    steps.execute()
    login = own_login.value
    pipe = conn.pipeline(transaction=False)
    for other, step in lost:
        if step.value:  # empty for someone who no longer exists
            other_login, ids = step.value
            followed = {"id": int(other), "login": other_login}
            follower = {"id": uid, "login": login}
            unfollowing(pipe, follower, followed, ids, follower_private=private.value == "1")
            notifications.queue_withdraw(
                pipe, int(other), notifications.FOLLOW, {"id": uid, "login": login}
            )
    following.queue_remove(pipe, uid, [other for other, _ in follows])
    pipe.execute()
    return True


def _leave_lists(uid: int) -> bool:
    return lists.leave_every_list(uid, count=PURGE_BATCH)


def _leave_groups(uid: int) -> bool:
    return groups.leave_every_group(uid, count=PURGE_BATCH)


def _take_back_likes(uid: int) -> bool:
    return reactions.take_back_likes(uid, count=PURGE_BATCH)


def _take_back_keeps(uid: int) -> bool:
    return keeps.take_back_keeps(uid, count=PURGE_BATCH)


def _delete_lists(uid: int) -> bool:
    return lists.delete_lists_of(uid, count=PURGE_BATCH)


def _drop_profile(uid: int) -> bool:
    # An add already past its check when the purge suspended the user can still land
    # (lists refuse suspended members after that): such late memberships are undone
    # before the key that records them goes.
    if _leave_lists(uid):
        return True
    pipe = get_redis().pipeline(transaction=False)
    home = keys.home_timeline_key(uid)
    # One DEL, one slot: every key here carries the hash tag {uid}. The sets the
    # phases above emptied are gone already (Redis drops an empty set); this also
    # takes the timelines that only ever pointed at others' statuses.
    # DEL itself: a cluster's pipeline refuses delete() of several keys, however slotted.
    pipe.execute_command(
        "DEL",
        user_key(uid),
        keys.profile_timeline_key(uid),
        keys.media_timeline_key(uid),  # media (mediaweb): the profile's media tab
        home,
        keys.shown_reposts_key(home),
        *follower_sets.all_keys(get_redis(), uid),
        *following.all_keys(uid),
        keys.mentions_timeline_key(uid),
        keys.likes_key(uid),
        keys.liked_key(uid),
        keys.reposted_key(uid),
        keys.user_lists_key(uid),
        keys.listed_in_key(uid),
        keys.member_groups_key(uid),
        keys.notifications_key(uid),
        keys.mention_notifications_key(uid),
        keys.inbox_key(uid),
        keys.inbox_unread_key(uid),
        keys.direct_conversations_key(uid),
        # Their own safety settings (timeline.safety). Others' sets that name them keep
        # a dead uid, which no status or page matches any more.
        keys.follow_requests_key(uid),
        keys.requested_key(uid),
        keys.blocks_key(uid),
        keys.blocked_by_key(uid),
        keys.mutes_key(uid),
        keys.muted_words_key(uid),
        # Client preferences (apiprefs): filters (the muted words now) and markers.
        filters_key(uid),
        markers_key(uid),
        keys.affinity_key(uid),
        # Polls: their own copy of their votes (the polls keep counting them, as
        # Mastodon's do; each poll's voters hash drops them with the poll).
        keys.poll_votes_key(uid),
        # Keep (timeline.keeps): their pins; bookmarks and followed tags are taken back.
        keys.pins_key(uid),
        keys.bookmarks_key(uid),
        keys.bookmarked_key(uid),
        keys.followed_tags_key(uid),
    )
    pipe.srem(SUSPENDED_USERS, uid)
    pipe.execute()
    return False


def _forget_follow_options(uid: int) -> bool:
    follow_options.forget_account(uid)
    return False


_PURGE_STEPS = {
    "followers": _detach_followers,
    "memberships": _leave_lists,
    "groups": _leave_groups,
    "statuses": _delete_statuses,
    "likes": _take_back_likes,
    "keeps": _take_back_keeps,
    "lists": _delete_lists,
    "following": _unfollow_everyone,
    "follow_options": _forget_follow_options,
    "profile": _drop_profile,
}
