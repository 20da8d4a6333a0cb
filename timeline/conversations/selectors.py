"""Reading conversations: a status with the chain it replies to and its replies, and
the mentions and tag timelines."""

from dataclasses import dataclass, replace

from accounts.keys import SUSPENDED_USERS
from socialsite.redis import Batch, PackedPipeline, get_redis

from .. import keys
from ..audience import selectors as safety
from ..feeds.selectors import Page, statuses_page
from ..media.selectors import with_attachments
from ..quotes.selectors import with_quotes
from ..statuses import text
from ..statuses.marks import queue_marks
from ..statuses.records import Status
from ..statuses.selectors import decode_status, hidden_uids, is_hidden

# The replies a conversation shows, oldest first.
REPLIES_SHOWN = 100


def mentions_page(uid: int, page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """Statuses that @mention `uid`, newest first."""
    return statuses_page(keys.mentions_timeline_key(uid), page, count, viewer=viewer)


def check_tag(tag: str) -> str:
    """The tag as indexed (lower-cased, without "#"), or ValueError if it isn't one."""
    tag = tag.removeprefix("#") if isinstance(tag, str) else ""
    if not text.TAG.fullmatch(f"#{tag}"):
        raise ValueError("A tag is up to 100 letters, digits or underscores.")
    return tag.lower()


def tag_page(tag: str, page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """Statuses tagged #`tag` (any case), newest first."""
    key = keys.tag_timeline_key(check_tag(tag))
    return statuses_page(key, page, count, viewer=viewer)


@dataclass(frozen=True, slots=True)
class Conversation:
    ancestors: list[Status | None]  # oldest first; None where one was deleted (or is hidden)
    status: Status
    replies: list[Status]  # oldest first
    more_replies: bool
    repost: Status | None = None  # the repost asked for, its original attached


def conversation(status_id: int, viewer: int | None = None) -> Conversation | None:
    """A status, the chain it replies to and its replies, marked `liked` and `reposted`
    for `viewer` (if any): 2 round trips.
    For a repost, its original's conversation (2 more). None if there is no such status.

    A suspended user's statuses read as deleted, as they do in timelines: None for
    their status (or a repost of it, or their repost), a gap in the chain, and their
    replies left out. So do those timeline.audience's rule hides from the viewer.
    Moderators see them in the admin, which doesn't come here."""
    conn = get_redis()
    batch = Batch(conn)
    # The suspended set is small and read in the same round trip, as timeline pages do.
    suspended = batch.smembers(SUSPENDED_USERS)
    fields = batch.hgetall(keys.status_key(status_id))
    reply_ids = batch.zrange(keys.replies_key(status_id), 0, REPLIES_SHOWN)
    audience_read = safety.queue_audience(batch, viewer)
    batch.execute()
    audience = audience_read.audience
    hidden = hidden_uids(suspended.value)
    reply_ids = reply_ids.value

    def shown(status: Status | None) -> Status | None:
        if not status or is_hidden(status, hidden):
            return None
        # timeline.audience's rule (1 round trip when it must learn whom the viewer follows).
        return status if safety.visible(conn, [status], audience) else None

    status = shown(decode_status(status_id, fields.value))
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
    hashes = pipe.for_each_key(map(keys.status_key, others), ("HGETALL",))
    marks = queue_marks(pipe, viewer, [status["id"], *others])
    pipe.execute()
    found = [
        decode_status(other, fields) for other, fields in zip(others, hashes.value, strict=True)
    ]
    marks.apply([status, *found])
    safety.confirm_follows(conn, [other for other in found if other], audience)
    found = [shown(other) for other in found]
    # Quotes: the quoted statuses, as this viewer may see them (1 round trip if any).
    with_quotes([status, *(s for s in found if s)], audience, hidden, conn)
    # Media (mediaweb): the attachments of those with media (1 round trip if any).
    with_attachments([status, *(s for s in found if s)], conn=conn)
    return Conversation(
        ancestors=found[: len(ancestors)],
        status=status,
        replies=[s for s in found[len(ancestors) :] if s],
        more_replies=len(reply_ids) > REPLIES_SHOWN,
    )


def reply_mentions(status: Status, viewer_login: str) -> str:
    """What a reply box starts with: "@author " and the others the status mentions, as
    Twitter and Mastodon do, leaving out the one replying."""
    named, seen = [], {viewer_login.lower()}
    for login in [status["login"], *(status.get("mentions") or "").split()]:
        if login.lower() not in seen:
            seen.add(login.lower())
            named.append(f"@{login} ")
    return "".join(named)


def mention_ids(uid: int) -> list[int]:
    """Every status id kept in `uid`'s mentions timeline, newest first: a deleted status's
    too until its deletion takes it out (pages skip it meanwhile)."""
    return [int(i) for i in get_redis().zrevrange(keys.mentions_timeline_key(uid), 0, -1)]


def tag_ids(tag: str) -> list[int]:
    """Every status id kept in #`tag`'s timeline (any case), newest first, as mention_ids."""
    key = keys.tag_timeline_key(check_tag(tag))
    return [int(i) for i in get_redis().zrevrange(key, 0, -1)]


def reply_ids(status_id: int) -> list[int]:
    """The ids of every reply kept for the status, oldest first (hidden ones too)."""
    return [int(i) for i in get_redis().zrange(keys.replies_key(status_id), 0, -1)]
