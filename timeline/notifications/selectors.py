"""Reading notifications: a page of them, grouped as people read them ("@alice and 3
others liked your status", the status shown once), and the unread counts of the nav.

A page is 2 round trips: its notifications, then the statuses they are about (as
timelines show them, marked for the reader) with those who acted (login, name and
avatar), whom of them the reader follows (the follow-back buttons), which follow
requests are still pending (approve or turn down, on the page) and how many are."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from accounts.authors import queue_authors, read_authors
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..feeds.selectors import LAST_PAGE, queue_statuses, read_page
from ..follow_sets import following
from ..statuses.records import Status
from .services import (
    FOLLOW_REQUEST,
    GROUP_KINDS,
    PERSON_KINDS,
    WHAT_THEY_DID,
    parse_member,
    time_of,
)
from .unread import UnreadCounts, decode_unread, queue_unread


@dataclass(slots=True)
class Notification:
    """One line of the page: who (newest first), did what, to which status (None for a
    follow), the newest time they did it."""

    kind: str
    logins: list[str]
    when: float
    status: Status | None = None
    # The uids of `logins`, in the same order.
    uids: list[int] = field(default_factory=list)
    # The group of a group's kinds ({"id", "handle", "name"}), else None.
    group: dict[str, Any] | None = None
    # Those who acted, as `logins`: {"id", "login", "name", "avatar"} (avatars, buttons).
    people: list[dict[str, Any]] = field(default_factory=list)
    # A follow request still waiting for the reader's answer.
    pending: bool = False

    @property
    def text(self) -> str:
        others = len(self.logins) - 1
        who = f"@{self.logins[0]}"
        if others:
            who += f" and {others} other{'s' if others > 1 else ''}"
        said = f"{who} {WHAT_THEY_DID[self.kind]}"
        return f"{said} {self.group['name']}" if self.group else said


# How a page reads the groups its notifications name: (pipeline, group ids) -> a queued
# read whose `.value` is {group id: {"id", "handle", "name"}} for the groups that exist.
# The groups room sits above this one and registers it (timeline.apps).
GroupReader = Callable[[Any, list[int]], Any]
_group_readers: list[GroupReader] = []


def register_group_reader(reader: GroupReader) -> None:
    """Sets how notification pages read the groups they name (one, the groups room's)."""
    _group_readers[:] = [reader]


@dataclass(frozen=True, slots=True)
class NotificationsPage:
    notifications: list[Notification]
    number: int
    has_older: bool
    # Of those who acted, whom the reader follows (the follow-back buttons).
    followed: set[int] = field(default_factory=set)
    # How many follow requests wait for the reader's answer, all told.
    requests: int = 0

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def notifications_page(
    uid: int, page: int, count: int, *, mentions_only: bool = False
) -> NotificationsPage:
    """Page `page` (from 1) of `uid`'s notifications (only mentions and replies if
    `mentions_only`), newest first, `count` a page before grouping: likes and reposts
    of one status group together, as do follows; a notification whose status is gone
    is left out."""
    if not 1 <= page <= LAST_PAGE or count < 1:
        raise ValueError(f"Pages go from 1 to {LAST_PAGE:,}.")
    key = (keys.mention_notifications_key if mentions_only else keys.notifications_key)(uid)
    conn = get_redis()
    start = (page - 1) * count
    # One more than asked tells whether an older page exists.
    found = conn.zrevrange(key, start, start + count, withscores=True)
    entries = [(*parse_member(member), time_of(score)) for member, score in found[:count]]
    ids = list(
        dict.fromkeys(
            str(obj)
            for kind, obj, _, _ in entries
            if kind not in PERSON_KINDS and kind not in GROUP_KINDS
        )
    )
    group_ids = list(dict.fromkeys(obj for kind, obj, _, _ in entries if kind in GROUP_KINDS))
    # Read each time, not taken from what this process keeps: a uid names no login to
    # check a kept author against (accounts.authors), and they ride this round trip.
    uids = list(dict.fromkeys(actor for _, _, actor, _ in entries))
    pipe = PackedPipeline(conn)
    read = queue_statuses(pipe, ids, len(ids), uid)
    authors = queue_authors(pipe, uids)
    named = _group_readers[0](pipe, group_ids) if group_ids and _group_readers else None
    follows = following.queue_scores(pipe, uid, uids) if uids else None
    askers = [actor for kind, _, actor, _ in entries if kind == FOLLOW_REQUEST]
    asking = pipe.zmscore(keys.follow_requests_key(uid), askers) if askers else None
    requests = pipe.zcard(keys.follow_requests_key(uid))
    pipe.execute()
    followed = set()
    if follows is not None:
        followed = {actor for actor, since in zip(uids, follows.value, strict=True) if since}
    pending = set()
    if asking is not None:
        pending = {actor for actor, since in zip(askers, asking.value, strict=True) if since}
    actors = read_authors(uids, authors.value)
    groups_named: dict[int, dict[str, Any]] = named.value if named is not None else {}
    statuses = read_page(read, 1).statuses
    by_id = {status["id"]: status for status in statuses}
    groups: dict[tuple[str, int], Notification] = {}
    for kind, obj, actor, when in entries:
        about = groups_named.get(obj) if kind in GROUP_KINDS else None
        status = None if kind in GROUP_KINDS else by_id.get(obj)
        # An actor whose profile is gone (their account closed) is left out too, and a
        # group's notification whose group is gone (deleted).
        gone = (
            about is None if kind in GROUP_KINDS else (kind not in PERSON_KINDS and status is None)
        )
        if gone or actor not in actors:
            continue
        # A reply or a mention is a status of its own, so a line of its own; a follow
        # request is answered one by one, so a line each too.
        group = (kind, actor if kind == FOLLOW_REQUEST else obj)
        if group not in groups:
            groups[group] = Notification(
                kind=kind,
                logins=[],
                when=when,
                status=status,
                group=about,
                pending=kind == FOLLOW_REQUEST and actor in pending,
            )
        groups[group].logins.append(actors[actor]["login"])
        groups[group].uids.append(actor)
        groups[group].people.append({**actors[actor], "id": actor})
    return NotificationsPage(
        notifications=list(groups.values()),
        number=page,
        has_older=len(found) > count,
        followed=followed,
        requests=int(requests.value or 0),
    )


def unread_counts(uid: int | None) -> UnreadCounts:
    """The nav's unread notifications and messages of `uid` (zeros for a visitor): 1
    round trip, for the pages that read nothing of the viewer's otherwise."""
    if uid is None:
        return {"notifications": 0, "messages": 0}
    return decode_unread(queue_unread(get_redis(), uid))


def notification_kept(uid: int, member: str) -> float | None:
    """(Web Push, apipush) The time of `uid`'s notification `member`: None if it wasn't
    kept (a block or mute refused it) or was taken back since."""
    score = get_redis().zscore(keys.notifications_key(uid), member)
    return None if score is None else time_of(score)
