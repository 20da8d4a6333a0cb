"""Reading a home page: its ids (the head of the home's list, feeds.home_list), its
statuses (feeds.pages), the upkeep the read found wanting, and the whole page with its
reader's profile and whom to follow.

A home page is 2 round trips (3 if it shows reposts): its ids with the suspended-user
set, the reader's profile and their kept suggestions (`queue_home`, which may ride the
session's round trip: accounts.backends.read_with_user); then the statuses not kept in
the process, the reader's marks and blocks, the suggestions' profiles and the upkeep."""

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from accounts.records import UserProfile
from accounts.services import decode_user
from socialsite.redis import Client, PackedPipeline, Pipe, Reply, get_redis

from .. import keys
from ..audience import selectors as safety
from ..discovery import suggestions
from ..follow_sets import members as member_sets
from ..statuses import cache
from ..statuses.records import Status
from . import home_list, refill
from .pages import Page, page_span, queue_statuses, read_page


@dataclass(frozen=True, slots=True)
class HomeIdsRead:
    """The reads `queue_home_ids` queued: the head of a home and STATUSES_EPOCH."""

    uid: int
    page: int
    count: int
    window: Reply
    epoch: Reply


def queue_home_ids(pipe: Pipe, uid: int, page: int, count: int) -> HomeIdsRead:
    """Queues the reads of the ids of page `page` of `uid`'s home, for `home_ids`: its
    head up to past the page (feeds.home_list), and STATUSES_EPOCH."""
    _, stop = page_span(page, count, settings.HOME_TIMELINE_SIZE)
    window = home_list.queue_window(pipe, uid, stop)
    return HomeIdsRead(uid, page, count, window, pipe.get(keys.STATUSES_EPOCH))


@dataclass(frozen=True)
class HomeIds:
    """A home page's ids as read (and one more, if an older page exists), those of its
    statuses kept in the process, and what `queue_home_upkeep` needs."""

    uid: int
    ids: list[str]
    kept: dict[str, Status]
    generation: int
    epoch: str | None
    in_order: bool


def home_ids(read: HomeIdsRead) -> HomeIds:
    """The HomeIds of `read`'s page (newest first, each once, within the newest
    HOME_TIMELINE_SIZE: feeds.home_list)."""
    epoch = read.epoch.value
    start, stop = page_span(read.page, read.count, settings.HOME_TIMELINE_SIZE)
    ids, in_order = home_list.shown(read.window.value)
    ids = ids[start : stop + 1]
    generation = cache.statuses.generation()
    kept = cache.statuses.get_by_id(ids[: read.count], epoch)
    return HomeIds(read.uid, ids, kept, generation, epoch, in_order)


@dataclass(frozen=True, slots=True)
class HomeUpkeep:
    """What `queue_home_upkeep` queued: the STATUSES_EPOCH read with the ids, or the one
    read after setting it (`made`)."""

    read: str | None
    made: Reply | None = None

    @property
    def epoch(self) -> str | None:
        """The STATUSES_EPOCH a home page's statuses are kept under."""
        return self.read if self.made is None else self.made.value


def queue_home_upkeep(pipe: Pipe, read: HomeIds) -> HomeUpkeep:
    """Queues, after a home page's other reads, what the page found wanting: the sort of
    a home it read out of order (feeds.home_list), and, with no STATUSES_EPOCH, a new one
    and its read (the token the page's statuses are kept under)."""
    if not read.in_order:
        home_list.queue_sort(pipe, read.uid, settings.HOME_TIMELINE_SIZE)
    if read.epoch is not None:
        return HomeUpkeep(read.epoch)
    pipe.set(keys.STATUSES_EPOCH, secrets.token_hex(8), nx=True)
    return HomeUpkeep(None, pipe.get(keys.STATUSES_EPOCH))


def home_timeline_page(uid: int, page: int, count: int, *, marked: bool) -> Page:
    """A page of `uid`'s home, as pages.posted_page reads a timeline (1 round trip when its
    statuses are all kept, unless `marked`, and the home is in order)."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    ids = queue_home_ids(pipe, uid, page, count)
    suspended = pipe.smembers(SUSPENDED_USERS)
    audience = None if marked else safety.queue_audience(pipe, uid)
    pipe.execute()
    shown, _ = home_statuses(conn, home_ids(ids), page, count, suspended, audience=audience)
    return shown


def home_statuses(
    conn: Client,
    read: HomeIds,
    page: int,
    count: int,
    suspended: Reply,
    *,
    audience: safety.AudienceRead | None = None,
    queue_more: Callable[[PackedPipeline], Any] = lambda pipe: None,
    originals: bool = True,
) -> tuple[Page, Any]:
    """A home page's second round trip, given its `read` ids: its statuses (marked for
    their reader unless their `audience` was read with the ids), the upkeep the read found
    wanting (queue_home_upkeep), and what `queue_more` queues on the same pipeline.
    Returns the Page and what `queue_more` returned (its handles, filled). Unless
    `originals`, reposts come without theirs (pages.read_page)."""
    pipe = PackedPipeline(conn)
    statuses = queue_statuses(
        pipe,
        read.ids,
        count,
        read.uid,
        kept=read.kept,
        generation=read.generation,
        suspended=suspended,
        audience=audience,
        marked=audience is None,
    )
    more = queue_more(pipe)
    upkeep = queue_home_upkeep(pipe, read)
    pipe.execute()
    shown = read_page(statuses, page, where=safety.HOME, epoch=upkeep.epoch, originals=originals)
    return shown, more


@dataclass(frozen=True)
class HomePage:
    user: UserProfile
    page: Page
    # Who to follow (discovery.suggestions), read with the page.
    suggestions: list[UserProfile]
    # Being rebuilt after a pause (feeds.homes): the page says it is catching up.
    catching_up: bool = False
    # The reader's groups (group id -> their standing), for the post box's group picker.
    groups: dict[int, member_sets.MemberState] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HomeFirstReads:
    """A home page's first reads (`queue_home`): its ids, the suspended-user set, its
    reader's profile, their kept suggestions and their groups."""

    ids: HomeIdsRead
    suspended: Reply
    user: Reply
    suggested: suggestions.KeptRead
    groups: Reply


def queue_home(pipe: Pipe, uid: int, page: int = 1, count: int = 30) -> HomeFirstReads:
    """Queues home_page's first reads (for its `first`)."""
    return HomeFirstReads(
        ids=queue_home_ids(pipe, uid, page, count),
        suspended=pipe.smembers(SUSPENDED_USERS),
        user=pipe.hgetall(user_key(uid)),
        suggested=suggestions.queue_read(pipe, uid),
        groups=member_sets.queue_groups_of(pipe, uid),
    )


def home_page(
    uid: int, page: int = 1, count: int = 30, *, first: HomeFirstReads | None = None
) -> HomePage | None:
    """`uid`'s home timeline as they see it, with their profile and whom to follow (the
    page's sidebar): 2 round trips, 3 if it shows reposts; one fewer given `first`, the
    page's first reads (queue_home's for this page) made with another step's (the
    session's, see accounts.backends.read_with_user). None for an unknown user."""
    conn = get_redis()
    if first is None:
        pipe = PackedPipeline(conn)
        first = queue_home(pipe, uid, page, count)
        pipe.execute()
    return assemble_home(
        conn,
        uid,
        first,
        lambda queue_more: home_statuses(
            conn, home_ids(first.ids), page, count, first.suspended, queue_more=queue_more
        ),
    )


class SidebarReads(Protocol):
    """What every home page's first reads hold besides its statuses' ids."""

    @property
    def user(self) -> Reply: ...
    @property
    def suggested(self) -> suggestions.KeptRead: ...
    @property
    def groups(self) -> Reply: ...


def assemble_home(
    conn: Client,
    uid: int,
    first: SidebarReads,
    read_statuses: Callable[[Callable[[Pipe], Any]], tuple[Page, Any]],
) -> HomePage | None:
    """A home page around its statuses, however they are picked (newest first here,
    by importance in timeline.ranking): the reader's profile, the upkeep of their home,
    whom to follow and their groups. `read_statuses(queue_more)` reads the page and
    what `queue_more` queues on its round trip (the suggestions' profiles), filled.
    None for an unknown user."""
    user = first.user.value
    profile = decode_user(user)
    if profile is None:
        return None
    catching_up = refill.note_home_read(conn, uid, user)
    suggested = first.suggested.value
    shown, profiles = read_statuses(lambda pipe: suggestions.queue_profiles(pipe, uid, suggested))
    return HomePage(
        user=profile,
        page=shown,
        suggestions=profiles.people,
        catching_up=catching_up,
        groups=member_sets.decode_groups(first.groups.value),
    )
