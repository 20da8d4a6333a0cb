"""@mentions, #tags and replies: the conversation around a status.

When a status is posted, its mentions of existing users go to their mentions
timelines ("who @mentions me") and its tags to one timeline per tag; a reply
joins its parent's reply set, which the parent's `replies` count follows. A
reply carries the ids of the statuses above it (`ancestors`), so a whole
conversation reads in 2 round trips however long the chain."""

# Annotations name services.Page lazily: services imports this module too.
from __future__ import annotations

from dataclasses import dataclass, replace

from django.conf import settings

from accounts.keys import LOGIN_INDEX, SUSPENDED_USERS
from socialsite.redis import PackedPipeline, get_redis

from . import keys, reactions, scripts, services, text

# The nearest statuses above a reply that it remembers, and the replies a
# conversation shows, oldest first.
ANCESTORS_KEPT = 50
REPLIES_SHOWN = 100


def reply_data(data: dict) -> dict:
    """A new status's extra `data` with `in_reply_to` turned into the reply's fields:
    1 round trip (2 answering a repost, which answers its original). ValueError if the
    status answered is gone."""
    if data.get("in_reply_to") is None:
        return data
    parent = reactions.original(data["in_reply_to"])
    ancestors = [*parent.get("ancestors", "").split(), str(parent["id"])][-ANCESTORS_KEPT:]
    return {
        **data,
        "in_reply_to": parent["id"],
        "in_reply_to_uid": parent["uid"],
        "in_reply_to_login": parent["login"],
        "ancestors": " ".join(ancestors),
    }


def _mentioned_logins(status: dict) -> list[str]:
    # A repost carries its original's mentions; only the original indexes them.
    return [] if status.get("repost_of") else text.mentions(status["message"])


def queue_lookups(pipe, status: dict) -> int:
    """Queues on `pipe` the reads index() needs (the uids of the logins mentioned);
    returns how many replies they add."""
    logins = _mentioned_logins(status)
    if logins:
        pipe.hmget(LOGIN_INDEX, logins)
    return 1 if logins else 0


def _add(pipe, timeline_key: str, status: dict) -> None:
    pipe.zadd(timeline_key, {status["id"]: status["posted"]})
    pipe.zremrangebyrank(timeline_key, 0, -settings.HOME_TIMELINE_SIZE - 1)


def index(pipe, status: dict, lookups: list) -> None:
    """Queues on `pipe` the indexing of a new status, given queue_lookups' replies: the
    mentions timelines of the users it mentions (but its author), the tag timelines and
    its parent's replies. Records on it the mentions of existing users, which are the
    ones linked (so `status` gains `mentions` and `mention_ids`)."""
    if lookups:
        found = zip(_mentioned_logins(status), lookups[0], strict=True)
        known = [(login, int(uid)) for login, uid in found if uid]
        if known:
            status["mentions"] = " ".join(login for login, _ in known)
            status["mention_ids"] = " ".join(str(uid) for _, uid in known)
            fields = ["mentions", status["mentions"], "mention_ids", status["mention_ids"]]
            scripts.run(pipe, "update_status", [keys.status_key(status["id"])], fields)
        for _, uid in known:
            if uid != status["uid"]:
                _add(pipe, keys.mentions_timeline_key(uid), status)
    if not status.get("repost_of"):
        for tag in text.tags(status["message"]):
            _add(pipe, keys.tag_timeline_key(tag), status)
    parent = status.get("in_reply_to")
    if parent:
        scripts.run(
            pipe,
            "add_to_status_set",
            [keys.status_key(parent), keys.replies_key(parent)],
            ["replies", status["posted"], status["id"]],
        )


def forget(pipe, status: dict) -> None:
    """Queues on `pipe` the removal of a deleted status from the mentions and tag
    timelines and from its parent's replies; its own reply set goes too."""
    for uid in status.get("mention_ids", "").split():
        pipe.zrem(keys.mentions_timeline_key(uid), status["id"])
    if not status.get("repost_of"):
        for tag in text.tags(status["message"]):
            pipe.zrem(keys.tag_timeline_key(tag), status["id"])
    parent = status.get("in_reply_to")
    if parent:
        scripts.run(
            pipe,
            "remove_from_status_set",
            [keys.status_key(parent), keys.replies_key(parent)],
            ["replies", status["id"], ""],
        )
    pipe.delete(keys.replies_key(status["id"]))


def mentions_page(
    uid: int, page: int = 1, count: int = 30, viewer: int | None = None
) -> services.Page:
    """Statuses that @mention `uid`, newest first."""
    return services.statuses_page(keys.mentions_timeline_key(uid), page, count, viewer=viewer)


def check_tag(tag: str) -> str:
    """The tag as indexed (lower-cased, without "#"), or ValueError if it isn't one."""
    tag = tag.removeprefix("#") if isinstance(tag, str) else ""
    if not text.TAG.fullmatch(f"#{tag}"):
        raise ValueError("A tag is up to 100 letters, digits or underscores.")
    return tag.lower()


def tag_page(tag: str, page: int = 1, count: int = 30, viewer: int | None = None) -> services.Page:
    """Statuses tagged #`tag` (any case), newest first."""
    key = keys.tag_timeline_key(check_tag(tag))
    return services.statuses_page(key, page, count, viewer=viewer)


@dataclass(frozen=True)
class Conversation:
    ancestors: list[dict | None]  # oldest first; None where one was deleted (or is hidden)
    status: dict
    replies: list[dict]  # oldest first
    more_replies: bool
    repost: dict | None = None  # the repost asked for, its original attached


def conversation(status_id: int, viewer: int | None = None) -> Conversation | None:
    """A status, the chain it replies to and its replies, marked `liked` and `reposted`
    for `viewer` (if any): 2 round trips. For a repost, its original's conversation
    (2 more). None if there is no such status.

    A suspended user's statuses read as deleted, as they do in timelines: None for
    their status (or a repost of it, or their repost), a gap in the chain, and their
    replies left out. Moderators see them in the admin, which doesn't come here."""
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    # The suspended set is small and read in the same round trip, as timeline pages do.
    pipe.smembers(SUSPENDED_USERS)
    pipe.hgetall(keys.status_key(status_id))
    pipe.zrange(keys.replies_key(status_id), 0, REPLIES_SHOWN)
    suspended, fields, reply_ids = pipe.execute()
    hidden = services.hidden_uids(suspended)

    def shown(status: dict | None) -> dict | None:
        return status if status and not services.is_hidden(status, hidden) else None

    status = shown(services.decode_status(fields))
    if status is None:
        return None
    if status.get("repost_of"):
        view = conversation(status["repost_of"], viewer)
        if view is None:
            return None
        status["original"] = view.status
        return replace(view, repost=status)
    ancestors = status.get("ancestors", "").split()
    others = [*ancestors, *reply_ids[:REPLIES_SHOWN]]
    pipe = PackedPipeline(conn)
    pipe.for_each_key(map(keys.status_key, others), ("HGETALL",))
    reactions.queue_marks(pipe, viewer, [status["id"], *others])
    replies = pipe.execute()
    found = [services.decode_status(fields) for fields in replies[: len(others)]]
    reactions.apply_marks([status, *found], replies[len(others) :])
    found = [shown(other) for other in found]
    return Conversation(
        ancestors=found[: len(ancestors)],
        status=status,
        replies=[s for s in found[len(ancestors) :] if s],
        more_replies=len(reply_ids) > REPLIES_SHOWN,
    )
