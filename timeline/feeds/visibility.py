"""Who sees a status in a home timeline: the reply rule and the repost rule, in one
place for fan-out (timeline.feeds.fanout, and add_to_timeline.lua, which is given
REPOST_FALLOFF) and for the live home timeline (streaming.home_filter.HomeFilter).

- A reply reaches those of its author's followers who follow the user it answers
  (or are that user); a reply to oneself reaches everyone, as a plain status does.
- A repost stays out of a timeline whose REPOST_FALLOFF newest entries already show
  its original (or another repost of it).
- A status for mentioned people only (visibility "direct") reaches no follower's home
  and no list: the people it mentions get it in their mentions and messages."""

from collections.abc import Callable, Mapping
from typing import Any

from timeline.statuses.records import Status
from timeline.statuses.visibility import is_direct

# A repost isn't shown in a timeline whose 40 newest entries already show its original.
REPOST_FALLOFF = 40


def answered_uid(status: Status) -> int | None:
    """The user a reply answers, when the reply rule narrows its audience: then it reaches
    only those of the author's followers who are that user or follow them. None for a
    status that reaches all its author's followers (not a reply, or one to themselves)."""
    # A new status's extra fields are still strings here, as they are stored.
    answered = int(status.get("in_reply_to_uid") or 0)
    return answered if answered and answered != int(status["uid"]) else None


def reaches_followers(status: Mapping[str, Any]) -> bool:
    """Whether a status (or a fan-out job's args) goes to its author's followers' homes
    and lists at all: all but a direct one do."""
    return not is_direct(status)


def reply_reaches(answered: int, follower_uid: int, *, follows_answered: bool) -> bool:
    """The reply rule for one of the author's followers (see answered_uid)."""
    return follows_answered or follower_uid == answered


def repost_falls_off(rank: Callable[[int], int | None], original: int, shown: int | None) -> bool:
    """add_to_timeline.lua's repost rule, for code that keeps a timeline's newest entries
    itself (the live home timeline): a repost of `original` stays out if the timeline shows
    the original, or `shown` (the repost of it that it last took in), among its
    REPOST_FALLOFF newest. `rank(id)` is an entry's place from the newest (0), or None."""

    def recent(status_id: int) -> bool:
        place = rank(status_id)
        return place is not None and place < REPOST_FALLOFF

    return recent(original) or (shown is not None and recent(shown))
