"""Reading status records: a status hash decoded, and the rule that hides the statuses
of suspended users from everyone but moderators."""

from collections.abc import Iterable
from typing import Any, cast

from accounts.authors import authors
from socialsite.redis import Client, get_redis

from .. import keys
from . import layout
from .records import Status
from .scores import MICROSECONDS

# Counts kept by conversations and reactions: absent means 0.
COUNT_FIELDS = ("replies", "reposts", "likes")
REFERENCE_FIELDS = ("in_reply_to", "in_reply_to_uid", "repost_of", "repost_of_uid")
QUOTE_INT_FIELDS = ("quotes", "quote_of", "quote_of_uid")
GONE = "That status doesn't exist or was deleted."


class StatusGone(ValueError):
    """The status acted on doesn't exist (any more), or reads as deleted."""


class AlreadyDone(ValueError):
    """The action was done already (a like of a status liked in another tab): changing
    nothing, it is no failure, and pages say so as news, not as an error."""


def status_id_of(value: Any) -> int:
    """`value` (say, a form field) as a status id; StatusGone if it can't be one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise StatusGone(GONE) from None


def decode_status(status_id: int | str, fields: dict[str, str]) -> Status | None:
    """Status `status_id` from its hash's fields (HGETALL's reply); None if it has none."""
    if not fields:
        return None
    status = layout.status_fields(status_id, fields)
    status["uid"] = int(status["uid"])
    for field in COUNT_FIELDS:
        status[field] = int(status.get(field, 0))
    for field in REFERENCE_FIELDS:
        if field in status:
            status[field] = int(status[field])
    # Quotes (timeline.quotes): its count where it has one, the quoted status's ids.
    for field in QUOTE_INT_FIELDS:
        if field in status:
            status[field] = int(status[field])
    # Edits (timeline.edits.layout): whole microseconds in the hash.
    if "edited" in status:
        status["edited"] = int(status["edited"]) / MICROSECONDS
    # The hash's fields are whatever was stored (a post's extra data too), so the
    # record is checked field by field above, not by the type checker.
    return cast(Status, status)


def get_status(status_id: int) -> Status | None:
    return decode_status(status_id, get_redis().hgetall(keys.status_key(status_id)))


def exist(conn: Client, status_ids: list[int] | list[str]) -> list[bool]:
    """Whether each status still exists: one round trip of single-key EXISTS, so it
    reads across slots. A status id is never reused, so one found gone stays gone."""
    pipe = conn.pipeline(transaction=False)
    for status_id in status_ids:
        pipe.exists(keys.status_key(status_id))
    return [bool(found) for found in pipe.execute()]


def hidden_uids(suspended: Iterable[str]) -> set[int]:
    """The uids whose statuses read as deleted to everyone but moderators, from a read
    of SUSPENDED_USERS (made in the same round trip as the statuses)."""
    return {int(uid) for uid in suspended}


def is_hidden(status: Status, hidden: set[int]) -> bool:
    """Whether `status` reads as deleted: its author, or its original's, is in `hidden`."""
    return status["uid"] in hidden or status.get("repost_of_uid") in hidden


def with_authors(statuses: list[Status | None]) -> None:
    """Gives each of `statuses` (and each repost's original) its author's display name
    and avatar token, as `author_name` and `author_avatar`, for its card: no round trip
    for authors this process read lately, one for the rest (accounts.authors)."""
    shown = [s for s in statuses if s]
    shown += [original for s in shown if (original := s.get("original"))]
    # Quotes: the quoted statuses shown inside their quotes' cards.
    shown += [quoted for s in shown if (quoted := s.get("quoted"))]
    found = authors({s["uid"]: s["login"] for s in shown})
    for status in shown:
        author = found.get(status["uid"])
        if author:
            status["author_name"] = author["name"] or status["login"]
            status["author_avatar"] = author["avatar"] or ""


def last_status_id() -> int:
    """The id of the newest status ever created (0 before the first): a status refused
    before it was stored takes no id."""
    return int(get_redis().get(keys.STATUS_ID_COUNTER) or 0)


def profile_ids(uid: int) -> list[int]:
    """The ids of every status kept on `uid`'s profile timeline, newest first: a deleted
    status's too until its deletion takes it off (pages skip it meanwhile)."""
    return [int(i) for i in get_redis().zrevrange(keys.profile_timeline_key(uid), 0, -1)]
