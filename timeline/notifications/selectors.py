"""Reading notifications: a page of them, grouped as people read them ("@alice and 3
others liked your status", the status shown once), and the unread counts of the nav.

A page is 2 round trips: its notifications, then the statuses they are about (as
timelines show them, marked for the reader) with those who acted (login, name and
avatar), whom of them the reader follows (the follow-back buttons), which follow
requests are still pending (approve or turn down, on the page) and how many are."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from accounts.authors import queue_authors, read_authors
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..feeds.selectors import LAST_PAGE, queue_statuses, read_page
from ..follow_sets import following
from ..statuses.records import Status
from .services import (
    FOLLOW,
    FOLLOW_REQUEST,
    GROUP_KINDS,
    PERSON_KINDS,
    WHAT_THEY_DID,
    parse_member,
    time_of,
)
from .unread import UnreadCounts, decode_unread, queue_unread


class Entry(NamedTuple):
    """One stored notification: its kind, its object (status, group, or 0), who acted,
    and its id: its score, distinct and rising in its set (notify.lua)."""

    kind: str
    obj: int
    actor: int
    id: int

    @property
    def when(self) -> float:
        return time_of(self.id)


def entry_of_event(notification: dict[str, Any]) -> Entry:
    """The Entry of a notification as notify.lua publishes it (its "notification")."""
    return Entry(
        notification["kind"],
        int(notification["object"]),
        int(notification["actor_id"]),
        int(notification["id"]),
    )


def entries_of(found: list[tuple[str, float]]) -> list[Entry]:
    """Entries of a sorted set's (member, score) pairs."""
    return [Entry(*parse_member(member), int(score)) for member, score in found]


def group_key(kind: str, obj: int, actor: int) -> str:
    """The group a notification belongs to, on the site's page and in the API's grouped
    notifications alike: likes (reposts, ...) of one status together, follows together;
    a follow request is answered one by one, and a reply or a mention is a status of its
    own, so each is a group of its own."""
    if kind == FOLLOW:
        return FOLLOW
    if kind == FOLLOW_REQUEST:
        return f"{FOLLOW_REQUEST}-{actor}"
    return f"{kind}-{obj}"


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
    # Its group_key, and the ids of its notifications, newest first.
    key: str = ""
    ids: list[int] = field(default_factory=list)

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


@dataclass(frozen=True, slots=True)
class Found:
    """What a set of entries is about, read in one round trip (read_entries): the
    statuses (as timelines show them to the reader), those who acted, the groups named,
    whom of them the reader follows, which follow requests still wait, and how many."""

    statuses: dict[int, Status]
    actors: dict[int, dict[str, Any]]
    groups: dict[int, dict[str, Any]]
    followed: set[int]
    pending: set[int]
    requests: int

    def shows(self, entry: Entry) -> bool:
        """Whether `entry` is shown: not if its status, its group or its actor is gone
        (deleted, or their account closed), or the reader may no longer see its status."""
        if entry.actor not in self.actors:
            return False
        if entry.kind in GROUP_KINDS:
            return entry.obj in self.groups
        return entry.kind in PERSON_KINDS or entry.obj in self.statuses


def read_entries(uid: int, entries: list[Entry]) -> Found:
    """What `entries` of `uid`'s notifications are about: 1 round trip."""
    ids = list(
        dict.fromkeys(
            str(e.obj) for e in entries if e.kind not in PERSON_KINDS and e.kind not in GROUP_KINDS
        )
    )
    group_ids = list(dict.fromkeys(e.obj for e in entries if e.kind in GROUP_KINDS))
    # Read each time, not taken from what this process keeps: a uid names no login to
    # check a kept author against (accounts.authors), and they ride this round trip.
    uids = list(dict.fromkeys(e.actor for e in entries))
    pipe = PackedPipeline(get_redis())
    read = queue_statuses(pipe, ids, len(ids), uid)
    authors = queue_authors(pipe, uids)
    named = _group_readers[0](pipe, group_ids) if group_ids and _group_readers else None
    follows = following.queue_scores(pipe, uid, uids) if uids else None
    askers = [e.actor for e in entries if e.kind == FOLLOW_REQUEST]
    asking = pipe.zmscore(keys.follow_requests_key(uid), askers) if askers else None
    requests = pipe.zcard(keys.follow_requests_key(uid))
    pipe.execute()
    followed = set()
    if follows is not None:
        followed = {actor for actor, since in zip(uids, follows.value, strict=True) if since}
    pending = set()
    if asking is not None:
        pending = {actor for actor, since in zip(askers, asking.value, strict=True) if since}
    return Found(
        statuses={status["id"]: status for status in read_page(read, 1).statuses},
        actors=read_authors(uids, authors.value),
        groups=named.value if named is not None else {},
        followed=followed,
        pending=pending,
        requests=int(requests.value or 0),
    )


def grouped(entries: list[Entry], found: Found) -> list[Notification]:
    """`entries` (newest first) as the page shows them: grouped by group_key, each group
    where its newest is, those `found` says are gone left out."""
    groups: dict[str, Notification] = {}
    for entry in entries:
        if not found.shows(entry):
            continue
        kind, actor = entry.kind, entry.actor
        key = group_key(kind, entry.obj, actor)
        if key not in groups:
            groups[key] = Notification(
                kind=kind,
                logins=[],
                when=entry.when,
                status=None if kind in GROUP_KINDS else found.statuses.get(entry.obj),
                group=found.groups.get(entry.obj) if kind in GROUP_KINDS else None,
                pending=kind == FOLLOW_REQUEST and actor in found.pending,
                key=key,
            )
        group = groups[key]
        # A member names its kind, object and actor: an actor is in a group once.
        group.ids.append(entry.id)
        group.logins.append(found.actors[actor]["login"])
        group.uids.append(actor)
        group.people.append({**found.actors[actor], "id": actor})
    return list(groups.values())


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
    start = (page - 1) * count
    # One more than asked tells whether an older page exists.
    found = get_redis().zrevrange(key, start, start + count, withscores=True)
    entries = entries_of(found[:count])
    about = read_entries(uid, entries)
    return NotificationsPage(
        notifications=grouped(entries, about),
        number=page,
        has_older=len(found) > count,
        followed=about.followed,
        requests=about.requests,
    )


def unread_counts(uid: int | None) -> UnreadCounts:
    """The nav's unread notifications and messages of `uid` (zeros for a visitor): 1
    round trip, for the pages that read nothing of the viewer's otherwise."""
    if uid is None:
        return {"notifications": 0, "messages": 0}
    return decode_unread(queue_unread(get_redis(), uid))


def notification_kept(uid: int, member: str) -> int | None:
    """(Web Push) The id of `uid`'s notification `member` (its score, as the API names
    it): None if it wasn't kept (a block or mute refused it) or was taken back since."""
    score = get_redis().zscore(keys.notifications_key(uid), member)
    return None if score is None else int(score)
