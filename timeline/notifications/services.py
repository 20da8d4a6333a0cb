"""Notifications: telling someone that another user followed them, liked, reposted or
answered their status, or mentioned them, and taking it back when the action is.

Each is one script in the recipient's slot, queued on the pipeline of the action
that makes it (a like, a post, a follow), so it costs that action no round trip.
A notification is a member of the recipient's capped sorted set naming the action
(notification_member): the same action can't notify twice, and undoing it knows which
member to remove. Its score is its time in whole milliseconds (score_of). Both are
what Redis's compact sorted set stores in the fewest bytes: a follow's member is the
follower's uid alone, kept as an integer, and so is the score (~15 B a follow in a set
of 1,000, against ~49 as "follow:0:<uid>:<login>" at a float's 17 digits); readers
take the actor's login from their profile (accounts.authors). The unread count is a
field of the recipient's profile hash; the script that changes it publishes it on
PRIVATE_CHANNEL for their open pages."""

import json
import time

from django.conf import settings

from accounts.keys import user_key
from socialsite.redis import get_redis

from .. import keys
from ..follow_sets import following
from ..push import services as push
from ..statuses.records import Status
from ..statuses.visibility import is_direct
from . import scripts

FOLLOW, LIKE, REPOST, REPLY, MENTION = "follow", "like", "repost", "reply", "mention"
# Someone asked to follow your private account: taken back when the request ends
# (approved, turned down or withdrawn: timeline.graph.services).
FOLLOW_REQUEST = "follow_request"
# A group's: someone asked to join a private group you moderate; a moderator approved
# your request to join. Their object is the group, not a status.
GROUP_REQUEST, GROUP_APPROVAL = "group_request", "group_approval"
# Polls (timeline.polls): a poll you voted in or made has closed; its actor is the
# poll's author, who is told too.
POLL = "poll"
# Quotes: someone quoted your status (its object is the quote).
QUOTE = "quote"
# Edits: a status you reposted, liked or replied to was edited (timeline.edits).
UPDATE = "update"
# Someone you asked to be told about (following them with notify) posted: the object is
# their status (timeline.graph's follow options, the notify_followers job).
STATUS = "status"
KINDS = (
    FOLLOW,
    FOLLOW_REQUEST,
    LIKE,
    REPOST,
    REPLY,
    MENTION,
    GROUP_REQUEST,
    GROUP_APPROVAL,
    POLL,
    QUOTE,
    UPDATE,
    STATUS,
)
# The kinds about a person rather than a status or a group (their object is 0).
PERSON_KINDS = {FOLLOW, FOLLOW_REQUEST}
MENTION_KINDS = {REPLY, MENTION}
GROUP_KINDS = {GROUP_REQUEST, GROUP_APPROVAL}
WHAT_THEY_DID = {
    FOLLOW: "followed you",
    FOLLOW_REQUEST: "asked to follow you",
    LIKE: "liked your status",
    REPOST: "reposted your status",
    REPLY: "replied to your status",
    MENTION: "mentioned you",
    GROUP_REQUEST: "asked to join",
    GROUP_APPROVAL: "approved your request to join",
    POLL: "ran a poll that has ended",
    QUOTE: "quoted your status",
    UPDATE: "edited a status you interacted with",
    STATUS: "posted",
}


def may_notify(actor_uid: int, recipient_uid: int) -> bool:
    """Whether what `actor_uid` does may notify `recipient_uid`: never for your own
    actions. The one place to decide it; the rest of it (not when either blocks the
    other or the recipient mutes the actor, timeline.safety) is read where the
    notification is written, in the recipient's slot (notify.lua), costing no round trip."""
    return int(actor_uid) != int(recipient_uid)


# A status's notifications: the kind's letter, the status, the actor ("l42:7": uid 7
# liked status 42); a group's, the group in the status's place ("q17:7": uid 7 asked to
# join group 17); a follow request's, 0 ("f0:7"). A follow (the bulk: everyone's
# followers notify) is the uid alone.
KIND_LETTERS = {
    FOLLOW_REQUEST: "f",
    LIKE: "l",
    REPOST: "p",
    REPLY: "r",
    MENTION: "m",
    GROUP_REQUEST: "q",
    GROUP_APPROVAL: "a",
    POLL: "o",
    QUOTE: "t",
    UPDATE: "u",
    STATUS: "s",
}
KINDS_BY_LETTER = {letter: kind for kind, letter in KIND_LETTERS.items()}


def notification_member(kind: str, object_id: int, actor: dict) -> str:
    """The member naming a notification: `object_id` is the status concerned (the group
    for a group's kinds, 0 for a follow)."""
    if kind == FOLLOW:
        return str(int(actor["id"]))
    return f"{KIND_LETTERS[kind]}{int(object_id)}:{int(actor['id'])}"


def parse_member(member: str) -> tuple[str, int, int]:
    """(kind, object, actor uid) of a notification_member."""
    if member.isdigit():
        return FOLLOW, 0, int(member)
    status_id, actor = member[1:].split(":")
    return KINDS_BY_LETTER[member[0]], int(status_id), int(actor)


def score_of(when: float) -> int:
    """A notification's score for a Unix time: whole milliseconds, which Redis keeps as an
    integer (a fraction would be a string of up to 17 digits). notify.lua keeps a set's
    scores distinct and after the last read (see there)."""
    return int(when * 1000)


def time_of(score: float) -> float:
    """The Unix time (seconds) of a notification's score."""
    return score / 1000


def notification_keys(recipient: int) -> dict[str, str]:
    """A user's notification sets and hash, named as the scripts take them."""
    return {
        "notifications_key": keys.notifications_key(recipient),
        "mentions_key": keys.mention_notifications_key(recipient),
        "user_key": user_key(recipient),
    }


def queue_notify(
    pipe,
    recipient: int,
    kind: str,
    actor: dict,
    object_id: int = 0,
    when: float | None = None,
    *,
    followers_only: bool = False,
    members_of: int | str = "",
    group: str | None = None,
) -> None:
    """Queues on `pipe` a notification for `recipient` that `actor` ({"id", "login"}) did
    `kind` to `object_id`, unless may_notify says no; with `followers_only` (a private
    account's status), only if `recipient` follows `actor`; with `members_of` (a private
    group's status: its group), only if `recipient` is a member of that group. A group's
    kinds name the group's handle (`group`) in the live event's text."""
    # A poll's author is told their own poll ended, as its voters are.
    if kind != POLL and not may_notify(actor["id"], recipient):
        return
    text = f"@{actor['login']} {WHAT_THEY_DID[kind]}"
    notification = {
        "kind": kind,
        "actor": actor["login"],
        "object": int(object_id),
        "text": f"{text} {group}" if group else text,
    }
    scripts.notify(
        pipe,
        **notification_keys(recipient),
        blocks_key=keys.blocks_key(recipient),
        blocked_by_key=keys.blocked_by_key(recipient),
        mutes_key=keys.mutes_key(recipient),
        following_key=keys.following_key(recipient),
        member=notification_member(kind, object_id, actor),
        score=score_of(time.time() if when is None else when),
        cap=settings.NOTIFICATIONS_KEPT,
        mention=kind in MENTION_KINDS,
        channel=keys.PRIVATE_CHANNEL,
        recipient=int(recipient),
        notification_json=json.dumps(notification),
        actor=int(actor["id"]),
        followers_only=followers_only,
        following_buckets=following.BUCKETS,
        groups_key=keys.member_groups_key(recipient),
        members_of=members_of,
    )
    # Web Push (apipush): the delivery job, for a recipient with push subscriptions.
    push.queue_push(pipe, recipient, notification_member(kind, object_id, actor))


def queue_withdraw(pipe, recipient: int, kind: str, actor: dict, object_id: int = 0) -> None:
    """Queues on `pipe` the removal of the notification queue_notify made (if any)."""
    if not may_notify(actor["id"], recipient):
        return
    scripts.withdraw(
        pipe,
        **notification_keys(recipient),
        member=notification_member(kind, object_id, actor),
        channel=keys.PRIVATE_CHANNEL,
        recipient=int(recipient),
    )


def _status_notifications(status: Status) -> list[tuple[int, str, int]]:
    """(recipient, kind, object) of each notification a new status makes: its original's
    author for a repost; its parent's author for a reply; each user it mentions (but
    one its reply notifies already)."""
    if status.get("repost_of"):
        return [(int(status["repost_of_uid"]), REPOST, int(status["repost_of"]))]
    made = []
    parent_author = status.get("in_reply_to_uid")
    if parent_author:
        made.append((int(parent_author), REPLY, int(status["id"])))
    for uid in str(status.get("mention_ids") or "").split():
        if uid != str(parent_author):
            made.append((int(uid), MENTION, int(status["id"])))
    # Quotes: the quoted status's author (the quote is the object).
    quoted_author = status.get("quote_of_uid")
    if quoted_author:
        made.append((int(quoted_author), QUOTE, int(status["id"])))
    return made


def queue_for_new_status(pipe, status: Status) -> None:
    """Queues the notifications a new status makes (after conversations.index, which
    finds whom it mentions)."""
    actor = {"id": status["uid"], "login": status["login"]}
    followers_only, group = post_audience(status)
    # A direct status (vis) tells the people it mentions alone, whoever they follow.
    direct = is_direct(status)
    mentioned = str(status.get("mention_ids") or "").split()
    for recipient, kind, object_id in _status_notifications(status):
        if direct and str(recipient) not in mentioned:
            continue
        queue_notify(
            pipe,
            recipient,
            kind,
            actor,
            object_id,
            status["posted"],
            followers_only=followers_only,
            members_of=group,
        )


def post_audience(status: Status) -> tuple[bool, str]:
    """What notify.lua checks of a status's recipient, in their slot: (only if they follow
    its author, the private group they must be a member of or '')."""
    # Only approved followers see a private account's status, only members a private
    # group's (timeline.audience).
    group = status.get("group", "") if status.get("group_private") == "1" else ""
    private = status.get(keys.PRIVATE_FIELD) == "1" and not group
    return private and not is_direct(status), group


def queue_withdraw_for_status(pipe, status: Status) -> None:
    """Queues the removal of the notifications a deleted status made."""
    actor = {"id": status["uid"], "login": status["login"]}
    for recipient, kind, object_id in _status_notifications(status):
        queue_withdraw(pipe, recipient, kind, actor, object_id)


def mark_read(uid: int) -> dict:
    """Marks all of `uid`'s notifications read (opening the page); returns the unread
    counts the nav shows: 1 round trip."""
    messages = scripts.mark_read(
        get_redis(),
        user_key=user_key(uid),
        notifications_key=keys.notifications_key(uid),
        read_at=score_of(time.time()),
        channel=keys.PRIVATE_CHANNEL,
        uid=uid,
    )
    return {"notifications": 0, "messages": int(messages or 0)}


def dismiss(uid: int, notification_id: int) -> bool:
    """Removes `uid`'s notification `notification_id` (its score): whether there was one.
    2 round trips: its member, then withdraw.lua's removal (which a removal in between
    leaves as it was)."""
    conn = get_redis()
    found = conn.zrangebyscore(keys.notifications_key(uid), notification_id, notification_id)
    if not found:
        return False
    return bool(
        scripts.withdraw(
            conn,
            **notification_keys(uid),
            member=found[0],
            channel=keys.PRIVATE_CHANNEL,
            recipient=int(uid),
        )
    )


def clear(uid: int) -> int:
    """Removes all of `uid`'s notifications, read and unread: how many there were."""
    return int(
        scripts.clear(
            get_redis(), **notification_keys(uid), channel=keys.PRIVATE_CHANNEL, recipient=uid
        )
        or 0
    )
