"""Editing a status: its author changes its text, warning, sensitive flag or its media's
alt texts and focal points (timeline.media.changes); the version it replaces is kept
(timeline.edits.layout), everyone who reposted, liked, replied to or quoted it is told,
and every reader sees the new text at once.

An edit is check -> do -> notify: check_edit (the text), do_edit (one script in the
status's slot keeps the old version and sets the new, and whom to tell is read on the
same round trip), then the rest in one packed write: the word index and the tag
timelines follow the new text, the "update" notifications go out (up to
EDIT_NOTIFICATIONS_INLINE at once; a job tells more, a pass at a time) and the event,
last. 2 round trips, 3 when it tells repliers or quoters inline (their authors are
read). Each process forgets its kept copy and card by the status's change on `statuses:changed`
(statuses.cache)."""

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from socialsite import events, jobs
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..conversations import services as conversations
from ..linkcards import services as linkcards
from ..media import changes as media_changes
from ..media.services import check_media_ids
from ..notifications import services as notifications
from ..quotes.keys import quotes_key
from ..search import services as search
from ..statuses import visibility
from ..statuses.cache import statuses as kept
from ..statuses.records import Status
from ..statuses.scores import MICROSECONDS
from ..statuses.selectors import GONE, StatusGone, decode_status
from ..statuses.services import check_message
from . import layout, scripts


class EditRefused(ValueError):
    """The edit may not be made: someone else's status, a repost, or edited too often."""


class NotYours(EditRefused):
    """Only a status's author edits it."""


@dataclass(frozen=True)
class Edit:
    """What an edit asks: the new text, and the warning and sensitive flag (None: left
    as they are), and its media's alt texts and focal points."""

    message: str
    spoiler_text: str | None = None
    sensitive: bool | None = None
    # Media (timeline.media): alt texts and focal points changed, and the attachment ids
    # the edit names (None: not named; they must be the status's own).
    media: tuple[media_changes.MediaChange, ...] = ()
    media_ids: tuple[int, ...] | None = None


def check_edit(
    message: Any,
    spoiler_text: Any = None,
    sensitive: Any = None,
    media_attributes: Any = None,
    media_ids: Any = None,
) -> Edit:
    """The edit to make, or ValueError saying what is wrong with it (the text is checked
    as a new status's is)."""
    checked = check_message(message)
    if spoiler_text is not None:
        # As a post's: one line, with the text at most STATUS_MAX_LENGTH together.
        spoiler_text = visibility.check_spoiler(spoiler_text, checked)
    media = media_changes.check_media_changes(media_attributes or ())
    ids = None if media_ids is None else tuple(check_media_ids(media_ids))
    return Edit(checked, spoiler_text, None if sensitive is None else bool(sensitive), media, ids)


def edit_status(uid: int, status_id: int, message: Any, **changes: Any) -> Status:
    """Edits `uid`'s status `status_id` (`spoiler_text=`, `sensitive=` too, and
    `media_attributes=` its attachments' alt texts and focal points): the status
    as it now is. StatusGone if it is gone, NotYours if someone else wrote it,
    EditRefused for a repost or one edited STATUS_VERSIONS_KEPT times already, ValueError
    for a bad text. Nothing changes on a refusal, nor when nothing would change."""
    edit = check_edit(
        message,
        changes.get("spoiler_text"),
        changes.get("sensitive"),
        changes.get("media_attributes"),
        changes.get("media_ids"),
    )
    conn = get_redis()
    if edit.media or edit.media_ids is not None:
        # Media: the alt texts are of this status's own attachments (checked first).
        media_changes.check_attached(conn, uid, int(status_id), edit.media, edit.media_ids)
    done = do_edit(conn, uid, int(status_id), edit)
    if media_changes.describe_attached(conn, uid, edit.media) and done.unchanged:
        # Only alt texts changed: pages and processes forget the status's card, and the
        # streams are told.
        kept.forget(done.new["id"])
        conn.publish(keys.STATUS_CHANGES_CHANNEL, keys.status_key(done.new["id"]))
        events.publish(conn, events.status_updated(done.new))
    if done.unchanged:
        return done.new
    pipe = PackedPipeline(conn)
    queue_reindex(pipe, done.old, done.new)
    audience = done.audience
    if audience.size() <= settings.EDIT_NOTIFICATIONS_INLINE:
        authors = read_authors(conn, [*audience.replies, *audience.quotes])
        told = [*audience.likers, *audience.reposters, *authors]
        queue_update_notifications(pipe, done.new, told)
    else:
        # Many to tell: a job tells them all, a pass at a time, after the request.
        jobs.enqueue(pipe, notify_job(done.new, 0))
    # Cards: the new text's link card, or none (timeline.linkcards).
    linkcards.queue_card(pipe, done.new)
    events.publish(pipe, events.status_updated(done.new))
    pipe.execute()
    return done.new


@dataclass(frozen=True)
class Audience:
    """The first pass of those an edit tells: likers' and reposters' uids, replies' and
    quotes' ids."""

    likers: list[str]
    reposters: list[str]
    replies: list[str]
    quotes: list[str]

    def size(self) -> int:
        return len(self.likers) + len(self.reposters) + len(self.replies) + len(self.quotes)

    def complete(self, per_pass: int) -> bool:
        """Whether it holds all of each set (a pass of `per_pass` read each)."""
        sets = (self.likers, self.reposters, self.replies, self.quotes)
        return max(len(each) for each in sets) < per_pass


@dataclass(frozen=True)
class Done:
    old: Status
    new: Status
    audience: Audience
    unchanged: bool = False


def do_edit(conn, uid: int, status_id: int, edit: Edit) -> Done:
    """Keeps the status's version and sets the new one, and reads the first pass of its
    likers, reposters, replies and quotes (1 round trip, all in the status's slot)."""
    edited_at = layout.edited_field(time.time())
    kept.forget(status_id)
    pipe = conn.pipeline(transaction=False)
    scripts.edit_status(
        pipe,
        status_key=keys.status_key(status_id),
        versions_key=keys.status_versions_key(status_id),
        editor=int(uid),
        changes_channel=keys.STATUS_CHANGES_CHANNEL,
        edited=edited_at,
        versions_kept=settings.STATUS_VERSIONS_KEPT,
        message=edit.message,
        spoiler_text=edit.spoiler_text,
        sensitive=edit.sensitive,
    )
    # One more than are told inline: more than that and a job tells them all.
    audience = queue_audience(pipe, status_id, 0, settings.EDIT_NOTIFICATIONS_INLINE + 1)
    taken, *read = pipe.execute()
    if taken == 0:
        raise StatusGone(GONE)
    if taken == -1:
        raise NotYours("You can only edit your own statuses.")
    if taken == -2:
        raise EditRefused("A repost can't be edited; edit the status itself.")
    if taken == -3:
        raise EditRefused(f"A status can be edited at most {settings.STATUS_VERSIONS_KEPT} times.")
    if taken == -4:
        current = kept_status(conn, status_id)
        return Done(current, current, Audience([], [], [], []), unchanged=True)
    old = decode_status(status_id, dict(zip(taken[::2], taken[1::2], strict=True)))
    assert old is not None
    edited = edited_at / MICROSECONDS
    return Done(old, new_version(old, edit, edited), audience_of(read, audience))


def kept_status(conn, status_id: int) -> Status:
    found = decode_status(status_id, conn.hgetall(keys.status_key(status_id)))
    if found is None:
        raise StatusGone(GONE)
    return found


def new_version(old: Status, edit: Edit, edited: float) -> Status:
    """The status as the edit left it (as the script set its hash)."""
    new: dict[str, Any] = {**old, "message": edit.message, "edited": edited}
    for name, value in (("spoiler_text", edit.spoiler_text), ("sensitive", edit.sensitive)):
        if value is None:
            continue
        if value:
            new[name] = "1" if value is True else value
        else:
            new.pop(name, None)
    return new  # type: ignore[return-value]


def queue_audience(pipe, status_id: int, start: int, count: int) -> int:
    """Queues reading the next `count` from `start` of a status's likers, reposters,
    replies and quotes (all in its slot); returns how many replies the caller reads
    back (4)."""
    end = start + count - 1
    pipe.zrange(keys.likers_key(status_id), start, end)
    pipe.zrange(keys.reposts_key(status_id), start, end)
    pipe.zrange(keys.replies_key(status_id), start, end)
    pipe.zrange(quotes_key(status_id), start, end)
    return 4


def audience_of(read: list, count: int) -> Audience:
    likers, reposters, replies, quotes = read[:count]
    return Audience(list(likers), list(reposters), list(replies), list(quotes))


def read_authors(conn, status_ids: list[str]) -> list[str]:
    """The authors' uids of `status_ids` (replies, quotes: 1 round trip; none for none)."""
    if not status_ids:
        return []
    pipe = conn.pipeline(transaction=False)
    for status_id in status_ids:
        pipe.hget(keys.status_key(status_id), "uid")
    return [uid for uid in pipe.execute() if uid]


def queue_reindex(pipe, old: Status, new: Status) -> None:
    """Queues the word index and the tag timelines following the new text."""
    search.forget(pipe, old)
    search.index(pipe, new)
    conversations.retag(pipe, old, new)


def notify_job(status: Status, start: int) -> jobs.Job:
    """The job that tells a pass of POSTS_PER_PASS of each of the edited status's sets,
    from `start`, and queues the next."""
    return ("notify_edit", {"status_id": status["id"], "start": start, "edited": status["edited"]})


def queue_update_notifications(pipe, status: Status, recipients: list[str]) -> None:
    """Queues telling each of `recipients` (uids) that `status` was edited: a second
    edit tells them again (the notification moves up, unread)."""
    actor = {"id": status["uid"], "login": status["login"]}
    # As its posting notified: a private group's members only, a private account's
    # followers only (timeline.audience).
    group = status.get("group", "") if status.get("group_private") == "1" else ""
    private = status.get(keys.PRIVATE_FIELD) == "1" and not group
    when = float(status.get("edited") or time.time())
    for recipient in dict.fromkeys(int(uid) for uid in recipients):
        notifications.queue_withdraw(pipe, recipient, notifications.UPDATE, actor, status["id"])
        notifications.queue_notify(
            pipe,
            recipient,
            notifications.UPDATE,
            actor,
            status["id"],
            when,
            followers_only=private,
            members_of=group,
        )


@jobs.handler("notify_edit")
def notify_edit_batch(args: dict) -> list[jobs.Job]:
    """Tells the next pass of an edited status's likers, reposters, repliers and
    quoters, from `start`; idempotent (a notification made twice is one). Stops if the
    status is gone or edited again since (that edit tells everyone anew)."""
    status_id, start, per_pass = int(args["status_id"]), int(args["start"]), settings.POSTS_PER_PASS
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hgetall(keys.status_key(status_id))
    count = queue_audience(pipe, status_id, start, per_pass)
    fields, *read = pipe.execute()
    status = decode_status(status_id, fields)
    if status is None or status.get("edited") != args.get("edited"):
        return []
    audience = audience_of(read, count)
    authors = read_authors(conn, [*audience.replies, *audience.quotes])
    out = conn.pipeline(transaction=False)
    queue_update_notifications(out, status, [*audience.likers, *audience.reposters, *authors])
    out.execute()
    return [] if audience.complete(per_pass) else [notify_job(status, start + per_pass)]
