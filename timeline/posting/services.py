"""Posting a status to its audience and deleting it again (Redis in Action 8.1.2 and
8.4): the path every status takes, whether written, a reply or a repost.

A post is 3 round trips: build it (its id), store it with the first pass of followers
and lists read, then deliver to those, index it, queue the jobs for the rest and
publish it, in one packed write. A deletion takes the hash at once (reads skip the
missing status) and leaves the clean-up of homes, lists and reactions to jobs."""

from dataclasses import dataclass, field

from django.conf import settings

from socialsite import events, jobs
from socialsite.redis import Batch, PackedPipeline, Reply, get_redis
from timeline.statuses.records import Status

from .. import keys
from ..conversations import services as conversations
from ..direct import statuses as direct_messages
from ..feeds import fanout, tag_fanout
from ..feeds.visibility import reaches_followers
from ..follow_sets import followers as follower_sets
from ..follow_sets import options as follow_options
from ..groups import services as groups
from ..keeps import services as keeps
from ..linkcards import services as linkcards
from ..media import services as media
from ..notifications import services as notifications
from ..notifications import subscriptions
from ..polls import services as polls
from ..quotes import services as quotes
from ..ranking import affinity
from ..search import services as search
from ..statuses import marks, visibility
from ..statuses.selectors import COUNT_FIELDS, REFERENCE_FIELDS
from ..statuses.services import (
    CORE_FIELDS,
    build_status,
    queue_store,
    queue_unrecord,
    remove_from_status_set,
    take_status,
)
from ..statuses.text import mentions

# Set only by the services that vouch for them, never as a post's extra data.
RESERVED_FIELDS = (
    CORE_FIELDS
    | set(COUNT_FIELDS)
    | set(REFERENCE_FIELDS)
    | {"in_reply_to_login", "ancestors", "mentions", "mention_ids"}
    | {"repost_of_login", "repost_of_posted"}
    | {keys.PRIVATE_FIELD}
    | {"group_handle", "group_private"}
    # Polls: set from `poll=` (a polls.PollSpec) only.
    | polls.POLL_FIELDS
    # Quotes: set by timeline.quotes (check_quote, revoke) and the count it keeps.
    | quotes.QUOTE_FIELDS
    # Edits (timeline.edits): set by an edit alone.
    | {"edited"}
    # Visibility (vis): posts say `visibility`, never its stored letter.
    | {visibility.VISIBILITY_FIELD}
    # Cards (timeline.linkcards): set by the card's job alone.
    | {"card"}
    # Media (timeline.media): set from `media_ids=` by attaching them, only.
    | {"media"}
)


def post_status(uid: int, message: str, **data) -> int | None:
    """Stores a status, delivers it to home and list timelines and publishes it; None for an
    unknown user. `in_reply_to=<status id>` makes it a reply (ValueError if that is gone);
    `group=<group id>` posts it to a group (GroupError if `uid` may not post there); a
    reply belongs to the group of the status it answers.

    The first POSTS_PER_PASS followers get it before this returns, the rest by a job."""
    conn = get_redis()
    status = check_post(conn, uid, message, data)
    if status is None:
        return None
    return deliver_status(conn, status)


def check_post(conn, uid: int, message: str, data: dict) -> Status | None:
    """The status to post (statuses.build_status: checked, its id allocated, not stored);
    None for an unknown user, ValueError for a bad message, reserved extra data or a
    reply to a status gone; GroupError (a ValueError) for a group `uid` may not post to
    (1 round trip more for a group's post). `poll=` a polls.PollSpec adds its poll."""
    reserved = RESERVED_FIELDS & (data.keys() - {"in_reply_to", "quote_id"})
    if reserved:
        raise ValueError(f"Extra data can't set {sorted(reserved)}")
    poll: polls.PollSpec | None = data.pop("poll", None)
    # Media (timeline.media): `media_ids=` the caller's uploads, attached last (below).
    media_ids = media.check_media_ids(data.pop("media_ids", None) or ())
    # Quotes: `quote_id` quotes a status (StatusGone, QuoteRefused), `quote_policy` asks
    # who may quote this one (else the author's default).
    data = dict(data)
    data.update(quotes.policy_data(data.pop("quote_policy", None)))
    quote_id = data.pop("quote_id", None)
    if quote_id is not None:
        data.update(quotes.check_quote(conn, uid, quote_id))
    replying = data.get("in_reply_to") is not None
    data = conversations.reply_data(data, uid)
    group = groups.check_group_post(conn, uid, data.pop("group", None), replying)
    status = build_status(conn, uid, message, {**data, **group})
    if status is not None and poll is not None:
        status.update(polls.poll_fields(poll, status["posted"]))  # type: ignore[typeddict-item]
    if status is not None and visibility.is_direct(status) and not mentions(status["message"]):
        raise ValueError("A status for mentioned people only must @mention someone.")
    if status is not None and group:
        # The group decides who sees its posts, not the author's account (nor a
        # visibility chosen or by default: vis).
        status.pop("private", None)
        status.pop("visibility", None)
        if group.get("group_private") == "1":
            status["private"] = "1"
    if status is not None and media_ids:
        # Media: claimed for this status, all or none, once every other check passed.
        status.update(media.attach(conn, uid, status["id"], media_ids))  # type: ignore[typeddict-item]
    return status


def deliver_status(conn, status: Status) -> int:
    """Stores a status from build_status, delivers it, indexes it and publishes it:
    2 round trips (3 for a reply). For services that set its reserved fields themselves
    (a repost)."""
    stored = do_store_status(conn, status)
    pipe = PackedPipeline(conn)
    queue_delivery(pipe, status, stored)
    polls.queue_close(pipe, status)
    queue_post_notifications(pipe, status)
    if stored.subscribers:
        # Follow options (apinotif): those who asked to be told when the author posts.
        subscriptions.queue_notify_subscribers(pipe, status)
    pipe.execute()
    if visibility.is_direct(status):
        direct_messages.send_direct_status(status)
    return status["id"]


@dataclass(frozen=True)
class _Stored:
    """What storing a status read for its delivery: its conversation's lookups, the
    first pass of the lists it goes to and of the followers it reaches, and where the
    fan-out job takes the followers over."""

    found: Reply | None
    lists: list
    followers: list
    cursor: list
    # A group's post: the first pass of its members it reaches, and where the job goes on.
    members: list = field(default_factory=list)
    members_cursor: list = field(default_factory=list)
    # How many asked to be notified when the author posts (follow_sets.options).
    subscribers: int = 0


def do_store_status(conn, status: Status) -> _Stored:
    """Stores the status on its author's profile and reads its first pass of followers
    and lists (1 round trip; 2 for a reply: fanout.reply_audience)."""
    uid = status["uid"]
    reads = Batch(conn)
    found = conversations.queue_lookups(reads, status)
    answered = fanout.queue_answered_followers(reads, status)
    listed = reads.zrange(keys.listed_in_key(uid), 0, settings.POSTS_PER_PASS - 1, withscores=True)
    first_followers = queue_store(
        reads, status, home_size=settings.HOME_TIMELINE_SIZE, followers=settings.POSTS_PER_PASS
    )
    subscribers = follow_options.queue_count_subscribers(reads, uid)
    group = status.get("group")
    first_members = quiet = None
    if group:
        first_members = follower_sets.queue_range(
            reads, keys.group_members_key(group), count=settings.POSTS_PER_PASS
        )
        quiet = fanout.queue_quiet_members(reads, status)
    reads.execute()
    batch: list
    cursor: list
    if first_followers is None:
        batch, cursor = [], []
    else:
        batch, cursor = follower_sets.decode_range(first_followers)
    answered_followers = () if answered is None else (answered.value,)
    followers = fanout.followers_reach(conn, status, batch, *answered_followers)
    counted = int(subscribers.value or 0)
    if first_members is None:
        return _Stored(found, listed.value, followers, cursor, subscribers=counted)
    members, members_cursor = follower_sets.decode_range(first_members)
    members = fanout.members_reach(conn, status, members, quiet.value if quiet else None)
    return _Stored(
        found, listed.value, followers, cursor, members, members_cursor, subscribers=counted
    )


def queue_delivery(pipe: PackedPipeline, status: Status, stored: _Stored) -> None:
    """Queues a stored status's delivery: the first pass of followers' homes and lists,
    its conversation and word indexes, the global timeline, and the fan-out jobs for the
    rest."""
    home_size = settings.HOME_TIMELINE_SIZE
    repost_of = status.get("repost_of")
    # A direct status reaches no list (feeds.visibility), as no follower's home.
    listed = stored.lists if reaches_followers(status) else []
    fanout.deliver(
        pipe,
        status["id"],
        status["posted"],
        [*stored.followers, *stored.members],
        home_size,
        repost_of=repost_of,
    )
    # Redis delivers while the rest is packed.
    pipe.send()
    fanout.deliver_to_lists(
        pipe,
        status["id"],
        status["posted"],
        [i for i, _ in listed],
        home_size,
        repost_of=repost_of,
    )
    conversations.index(pipe, status, stored.found)
    quotes.queue_quoted(pipe, status)
    search.index(pipe, status)
    affinity.queue_for_new_status(pipe, status)
    # A private account's statuses never go on the global timeline, nor unlisted ones.
    if not repost_of and visibility.is_listed(status):
        pipe.zadd(keys.GLOBAL_TIMELINE, {status["id"]: status["posted"]})
        pipe.zremrangebyrank(keys.GLOBAL_TIMELINE, 0, -settings.GLOBAL_TIMELINE_SIZE - 1)
    group = status.get("group")
    if group and not status.get("in_reply_to"):
        pipe.zadd(keys.group_timeline_key(group), {status["id"]: status["posted"]})
    rests = (
        fanout.fan_out_from(fanout.fan_out_job(status), stored.cursor)
        if reaches_followers(status)
        else None,
        fanout.rest_of_fan_out(fanout.fan_out_job(status, audience="lists"), listed),
        fanout.fan_out_from(fanout.fan_out_job(status, audience="members"), stored.members_cursor)
        if group
        else None,
    )
    for rest in filter(None, rests):
        jobs.enqueue(pipe, rest)
    # Keep: the homes of its #tags' followers, by jobs alone (feeds.tag_fanout).
    for job in tag_fanout.tag_jobs(fanout.fan_out_job(status, audience="tags"), status):
        jobs.enqueue(pipe, job)
    # Cards: its first link's preview card, fetched by the worker (timeline.linkcards).
    linkcards.queue_card(pipe, status)


def queue_post_notifications(pipe, status: Status) -> None:
    """Queues what a new status tells others: the notifications it makes (a reply, a
    mention, a repost) and its event, last."""
    notifications.queue_for_new_status(pipe, status)
    events.publish(pipe, events.status_posted(status))


def delete_status(uid: int, status_id: int) -> bool | None:
    """Deletes a status if `uid` wrote it: True; False if someone else did (nothing changes);
    None if there is no such status."""
    return _delete(status_id, str(uid))


def remove_status(status_id: int) -> bool | None:
    """Deletes any status, as a moderator: True, or None if there is no such status."""
    return _delete(status_id, "")


def _delete(status_id: int, author: str) -> bool | None:
    conn = get_redis()
    # The author check and the deletion are one script in the status's slot.
    status = take_status(conn, status_id, author)
    if not status:
        return status
    pipe = conn.pipeline(transaction=False)
    queue_deletion(pipe, status)
    queue_deletion_notifications(pipe, status)
    pipe.execute()
    return True


def queue_deletion(pipe, status: Status) -> None:
    """Queues the rest of a taken status's deletion: its author's timelines and count,
    the global timeline, its conversation and word indexes, its reactions, and the jobs
    that take it out of homes and lists (reads skip the missing hash meanwhile)."""
    queue_unrecord(pipe, status)
    pipe.zrem(keys.GLOBAL_TIMELINE, status["id"])
    conversations.forget(pipe, status)
    quotes.queue_deletion(pipe, status)
    # Edits: its earlier versions (timeline.edits).
    pipe.delete(keys.status_versions_key(status["id"]))
    search.forget(pipe, status)
    _forget_reactions(pipe, status)
    polls.queue_forget(pipe, status)
    if status.get("group"):
        pipe.zrem(keys.group_timeline_key(status["group"]), status["id"])
    for audience in fanout.audiences_of(status):
        jobs.enqueue(pipe, fanout.fan_out_job(status, retract=True, audience=audience))
    # Keep: out of its tags' followers' homes, its pin and its bookmarks (timeline.keeps).
    for job in tag_fanout.tag_jobs(
        fanout.fan_out_job(status, retract=True, audience="tags"), status
    ):
        jobs.enqueue(pipe, job)
    keeps.queue_status_deleted(pipe, status)
    # Cards: its card's picture (the card itself went with the hash; timeline.linkcards).
    linkcards.queue_forget(pipe, status)
    # Media: its attachments' files and records, by a job (timeline.media).
    media.queue_status_deleted(pipe, status)


def queue_deletion_notifications(pipe, status: Status) -> None:
    """Queues what a deletion tells others: the notifications the status made, withdrawn,
    and the deletion's event, last."""
    notifications.queue_withdraw_for_status(pipe, status)
    events.publish(pipe, events.status_deleted(status))


def _forget_reactions(pipe, status: Status) -> None:
    """Queues on `pipe` what deleting `status` means for reactions: a repost leaves its
    original's reposts; an original's reposts and likes go by a background job."""
    if status.get("repost_of"):
        remove_from_status_set(
            pipe, keys.reposts_key, status["repost_of"], "reposts", status["uid"], status["id"]
        )
        marks.queue_unreposted(pipe, status["uid"], status["repost_of"])
    if status["reposts"] or status["likes"]:
        jobs.enqueue(pipe, ("forget_reactions", {"status_id": status["id"]}))


@jobs.handler("forget_reactions")
def forget_reactions_batch(args: dict) -> list[jobs.Job]:
    """Deletes the next POSTS_PER_PASS reposts of a deleted status and takes it off the
    next POSTS_PER_PASS likers' likes pages; idempotent."""
    status_id, per_pass = args["status_id"], settings.POSTS_PER_PASS
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.zrange(keys.reposts_key(status_id), 0, per_pass - 1, withscores=True)
    pipe.zrange(keys.likers_key(status_id), 0, per_pass - 1)
    reposts, likers = pipe.execute()
    for _, repost_id in reposts:
        remove_status(int(repost_id))
    for liker in likers:
        marks.queue_unlike(pipe, liker, status_id)
    if reposts:
        # Also drops claims whose repost never got stored, and their marks.
        pipe.zrem(keys.reposts_key(status_id), *(uid for uid, _ in reposts))
        for reposter, _ in reposts:
            marks.queue_unreposted(pipe, reposter, status_id)
    if likers:
        pipe.zrem(keys.likers_key(status_id), *likers)
    pipe.execute()
    more = len(reposts) == per_pass or len(likers) == per_pass
    return [("forget_reactions", args)] if more else []
