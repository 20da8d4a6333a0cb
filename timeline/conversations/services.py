"""@mentions, #tags and replies: the conversation around a status, as it is written.

When a status is posted, its mentions of existing users go to their mentions
timelines ("who @mentions me") and its tags to one timeline per tag; a reply
joins its parent's reply set, which the parent's `replies` count follows. A
reply carries the ids of the statuses above it (`ancestors`), so a whole
conversation reads in 2 round trips however long the chain."""

from typing import Any

from django.conf import settings

from accounts.keys import LOGIN_INDEX
from socialsite.redis import Pipe, Reply
from timeline.statuses.records import Status

from .. import keys
from ..feeds.selectors import original
from ..statuses import text
from ..statuses.services import add_to_status_set, queue_update, remove_from_status_set
from ..statuses.visibility import is_direct, is_unlisted

# The nearest statuses above a reply that it remembers.
ANCESTORS_KEPT = 50


def reply_data(data: dict[str, Any], uid: int) -> dict[str, Any]:
    """A new status's extra `data` with `in_reply_to` turned into the reply's fields:
    1 round trip (2 answering a repost, which answers its original). ValueError if the
    status answered is gone or hidden from `uid` (a block either way, a private account
    they don't follow)."""
    if data.get("in_reply_to") is None:
        return data
    parent = original(data["in_reply_to"], viewer=uid)
    ancestors = [*parent.get("ancestors", "").split(), str(parent["id"])][-ANCESTORS_KEPT:]
    return {
        **data,
        "in_reply_to": parent["id"],
        "in_reply_to_uid": parent["uid"],
        "in_reply_to_login": parent["login"],
        "ancestors": " ".join(ancestors),
        # A reply belongs to the group of the status it answers (or to none).
        "group": parent.get("group"),
    }


def _mentioned_logins(status: Status) -> list[str]:
    # A repost carries its original's mentions; only the original indexes them.
    return [] if status.get("repost_of") else text.mentions(status["message"])


def queue_lookups(pipe: Pipe, status: Status) -> Reply | None:
    """Queues on `pipe` the read index() needs (the uids of the logins mentioned): its
    handle, or None if it mentions no one."""
    logins = _mentioned_logins(status)
    return pipe.hmget(LOGIN_INDEX, logins) if logins else None


def _add(pipe: Pipe, timeline_key: str, status: Status) -> None:
    pipe.zadd(timeline_key, {status["id"]: status["posted"]})
    pipe.zremrangebyrank(timeline_key, 0, -settings.HOME_TIMELINE_SIZE - 1)


def index(pipe: Pipe, status: Status, lookups: Reply | None) -> None:
    """Queues on `pipe` the indexing of a new status, given queue_lookups' handle: the
    mentions timelines of the users it mentions (but its author), the tag timelines and
    its parent's replies. Records on it the mentions of existing users, which are the
    ones linked (so `status` gains `mentions` and `mention_ids`)."""
    if lookups:
        found = zip(_mentioned_logins(status), lookups.value, strict=True)
        known = [(login, int(uid)) for login, uid in found if uid]
        if known:
            status["mentions"] = " ".join(login for login, _ in known)
            status["mention_ids"] = " ".join(str(uid) for _, uid in known)
            fields = ["mentions", status["mentions"], "mention_ids", status["mention_ids"]]
            queue_update(pipe, status["id"], fields)
        for _, uid in known:
            if uid != status["uid"]:
                _add(pipe, keys.mentions_timeline_key(uid), status)
    # An unlisted or direct status (vis) is never on a tag's page.
    if not status.get("repost_of") and not (is_unlisted(status) or is_direct(status)):
        for tag in text.tags(status["message"]):
            _add(pipe, keys.tag_timeline_key(tag), status)
    parent = status.get("in_reply_to")
    if parent:
        add_to_status_set(pipe, keys.replies_key, parent, "replies", status["posted"], status["id"])


def forget(pipe: Pipe, status: Status) -> None:
    """Queues on `pipe` the removal of a deleted status from the mentions and tag
    timelines and from its parent's replies; its own reply set goes too."""
    for uid in status.get("mention_ids", "").split():
        pipe.zrem(keys.mentions_timeline_key(uid), status["id"])
    if not status.get("repost_of"):
        for tag in text.tags(status["message"]):
            pipe.zrem(keys.tag_timeline_key(tag), status["id"])
    parent = status.get("in_reply_to")
    if parent:
        remove_from_status_set(pipe, keys.replies_key, parent, "replies", status["id"])
    pipe.delete(keys.replies_key(status["id"]))


def retag(pipe: Pipe, old: Status, new: Status) -> None:
    """Queues on `pipe` moving an edited status between tag timelines: off the tags its
    new text dropped, onto those it gained (at its posted time, as when posted)."""
    if new.get("repost_of"):
        return
    before, after = text.tags(old["message"]), text.tags(new["message"])
    for tag in before:
        if tag not in after:
            pipe.zrem(keys.tag_timeline_key(tag), new["id"])
    for tag in after:
        if tag not in before:
            _add(pipe, keys.tag_timeline_key(tag), new)
