"""Reading timelines: a page of any timeline's statuses (home, profile, global, and the
mentions, tag, likes and list timelines built on it), one status as a timeline shows
it, and pages of people.

A page is 2 round trips: its ids, then the statuses with the suspended-user set, the
viewer's likes and reposts of them, the viewer's blocks and mutes (timeline.safety's
rule) (the nav's unread counts come with the session check: accounts'
read_with_session); a third when it shows reposts, for
their originals, and one when it holds others' private statuses by authors the page
doesn't know the viewer follows. Statuses live in their own slots,
so one cluster-legal round trip can't read ids and statuses together."""

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from accounts.records import UserProfile
from accounts.services import decode_user, get_users
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..audience import selectors as safety
from ..discovery import suggestions
from ..scores import POSTED
from ..statuses import cache, layout
from ..statuses.marks import apply_marks, queue_marks
from ..statuses.records import Status
from ..statuses.selectors import (
    GONE,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)
from . import home_list, refill

# A named timeline's key from its owner.
TIMELINES = {"home": keys.home_timeline_key, "profile": keys.profile_timeline_key}
# Where a named timeline shows its statuses, for timeline.safety's rule (home: mutes
# too; global: never a private status); any other shows them ANYWHERE.
SHOWN_WHERE = {"home": safety.HOME, "global": safety.GLOBAL}
# Nine digits keep (page - 1) * count far inside the 64-bit offsets Redis takes.
LAST_PAGE = 999_999_999


@dataclass(frozen=True, slots=True)
class Page:
    statuses: list[Status]
    number: int
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def page_span(page: int, count: int, length: int | None = None) -> tuple[int, int]:
    """The first and last index (newest first) of page `page` (from 1) of `count`
    statuses, and one more (which tells whether an older page exists), within a
    timeline's newest `length` entries if given."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    if page > LAST_PAGE:
        raise ValueError(f"Pages go up to {LAST_PAGE:,}.")
    start = (page - 1) * count
    return start, start + count if length is None else min(start + count, length - 1)


def page_ids(
    client, key: str, page: int, count: int, *, length: int | None = None, withscores=False
):
    """The ids of page `page` (from 1) of the sorted set at `key`, newest first (POSTED),
    on a connection or a pipeline, within its newest `length` entries if given. One id
    more than asked tells whether an older page exists."""
    start, stop = page_span(page, count, length)
    return POSTED.newest(client, key, start, stop, withscores=withscores)


def queue_home_ids(pipe, uid: int, page: int, count: int) -> None:
    """Queues the reads of the ids of page `page` of `uid`'s home (2 replies, for
    `home_ids`): its head up to past the page (feeds.home_list), and STATUSES_EPOCH."""
    _, stop = page_span(page, count, settings.HOME_TIMELINE_SIZE)
    home_list.queue_window(pipe, uid, stop)
    pipe.get(keys.STATUSES_EPOCH)


@dataclass(frozen=True, slots=True)
class HomeIds:
    """A home page's ids as read (and one more, if an older page exists), those of its
    statuses kept in the process, and what `queue_home_upkeep` needs."""

    uid: int
    ids: list[str]
    kept: dict[str, Status]
    generation: int
    epoch: str | None
    in_order: bool


def home_ids(uid: int, replies: list, page: int, count: int) -> HomeIds:
    """The HomeIds of page `page` from the replies to queue_home_ids (newest first, each
    once, within the newest HOME_TIMELINE_SIZE: feeds.home_list)."""
    window, epoch = replies
    start, stop = page_span(page, count, settings.HOME_TIMELINE_SIZE)
    ids, in_order = home_list.shown(window)
    ids = ids[start : stop + 1]
    generation = cache.statuses.generation()
    kept = cache.statuses.get_by_id(ids[:count], epoch)
    return HomeIds(uid, ids, kept, generation, epoch, in_order)


def queue_home_upkeep(pipe, read: HomeIds) -> int:
    """Queues, after a home page's other reads, what the page found wanting: the sort of
    a home it read out of order (feeds.home_list), and, with no STATUSES_EPOCH, a new one
    and its read (the token the page's statuses are kept under). Returns how many replies
    they add (the last is the token, if any)."""
    added = 0
    if not read.in_order:
        home_list.queue_sort(pipe, read.uid, settings.HOME_TIMELINE_SIZE)
        added += 1
    if read.epoch is None:
        pipe.set(keys.STATUSES_EPOCH, secrets.token_hex(8), nx=True)
        pipe.get(keys.STATUSES_EPOCH)
        added += 2
    return added


def upkept_epoch(read: HomeIds, replies: list) -> str | None:
    """The STATUSES_EPOCH a home page's statuses are kept under, from the replies to
    `queue_home_upkeep` (the last `added` of a pipeline's)."""
    return replies[-1] if read.epoch is None and replies else read.epoch


def queue_statuses(
    pipe: PackedPipeline,
    ids: list[str],
    count: int,
    viewer: int | None,
    *,
    kept: dict[str, Status] | None = None,
    suspended: list | None = None,
) -> int:
    """Queues the (small) suspended-user set (unless read already: `suspended`), the
    status hashes (but those `kept` in the process) and whether `viewer` (if any) liked or
    reposted them, and the viewer's blocks and mutes, which `read_page` reads; returns how
    many replies they add."""
    shown = ids[:count]
    missing = [i for i in shown if i not in kept] if kept else shown
    added = len(missing)
    if suspended is None:
        pipe.smembers(SUSPENDED_USERS)
        added += 1
    if missing:
        pipe.for_each_key(map(keys.status_key, missing), ("HGETALL",))
    added += queue_marks(pipe, viewer, shown)
    added += safety.queue_audience(pipe, viewer)
    return added


def read_page(
    ids: list[str],
    replies: list,
    page: int,
    count: int,
    *,
    viewer: int | None,
    include_suspended: bool = False,
    where: str = safety.ANYWHERE,
    follows: set[int] | None = None,
    kept: dict[str, Status] | None = None,
    suspended: list | None = None,
    generation: int | None = None,
    audience: safety.Audience | None = None,
    epoch: str | None = None,
) -> Page:
    """The Page from `queue_statuses`' replies (1 more round trip if it shows reposts).
    Statuses of suspended users are left out unless `include_suspended` (moderators,
    who see everything), and those timeline.safety's rule hides from `viewer` shown
    `where`; `follows`: authors the caller knows the viewer follows. With `generation`
    (statuses.cache), the statuses read are kept in the process. With `audience` (the
    viewer's, read already), the replies hold no marks of the viewer's."""
    shown = ids[:count]
    missing = [i for i in shown if i not in kept] if kept else shown
    if audience is None:
        audience_replies = safety.AUDIENCE_REPLIES if viewer else 0
        audience = safety.read_audience(viewer, replies[len(replies) - audience_replies :])
        replies = replies[: len(replies) - audience_replies]
    audience.follows.update(follows or ())
    if suspended is None:
        suspended, replies = replies[0], replies[1:]
    hashes, marks = replies[: len(missing)], replies[len(missing) :]
    hidden = set() if include_suspended else hidden_uids(suspended)
    fetched = [decode_status(i, fields) for i, fields in zip(missing, hashes, strict=True)]
    if fetched and generation is not None:
        cache.statuses.keep(fetched, generation, epoch)
    if not kept:
        statuses = fetched
    elif fetched:
        by_id = {**kept, **dict(zip(missing, fetched, strict=True))}
        statuses = [by_id[i] for i in shown]
    else:
        statuses = [kept[i] for i in shown]
    # A repost is marked here too, unused: it shows its original, marked when read.
    apply_marks(statuses, marks)
    if hidden:
        present = [s for s in statuses if s and not is_hidden(s, hidden)]
    else:
        present = [s for s in statuses if s]
    if where == safety.HOME:
        # Fan-out delivers a status only to its author's followers, and whatever ends a
        # follow takes the author's statuses out of home: its authors are followed.
        audience.follows.update(s["uid"] for s in present)
    present = with_originals(present, viewer)
    if not include_suspended:
        present = safety.visible(None, present, audience, where=where)
    return Page(statuses=present, number=page, has_older=len(ids) > count)


def statuses_page(
    key: str,
    page: int,
    count: int,
    *,
    viewer: int | None = None,
    include_suspended: bool = False,
    where: str = safety.ANYWHERE,
    length: int | None = None,
) -> Page:
    """Page `page` (from 1) of the timeline at `key` (of its newest `length` entries, if
    given), newest first, each status marked `liked` and `reposted` for `viewer` (if any):
    2 round trips, 3 if it shows reposts."""
    conn = get_redis()
    ids = page_ids(conn, key, page, count, length=length)
    pipe = PackedPipeline(conn)
    queue_statuses(pipe, ids, count, viewer)
    replies = pipe.execute()
    return read_page(
        ids, replies, page, count, viewer=viewer, include_suspended=include_suspended, where=where
    )


def posted_page(
    key: str,
    page: int,
    count: int,
    *,
    viewer: int | None = None,
    where: str = safety.ANYWHERE,
    marked: bool = True,
) -> Page:
    """As statuses_page, for a timeline scored by the time each status was posted
    (profile, global: POSTED), whose statuses are kept in the process (statuses.cache):
    its ids and the suspended-user set, then the statuses not kept with the viewer's
    marks, if any are needed. 1 round trip when all are kept and there is no viewer, else
    2 (3 if it shows reposts). Unless `marked`, the statuses come without the viewer's
    likes and reposts marks, the viewer's reads for the safety rule go with the ids, and
    the page is 1 round trip when all are kept."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    page_ids(pipe, key, page, count, withscores=True)
    pipe.smembers(SUSPENDED_USERS)
    if not marked:
        safety.queue_audience(pipe, viewer)
    entries, suspended, *rule_reads = pipe.execute()
    audience = None if marked else safety.read_audience(viewer, rule_reads)
    ids, kept, generation = kept_statuses(entries, count)
    pipe = PackedPipeline(conn)
    queue_statuses(pipe, ids, count, viewer if marked else None, kept=kept, suspended=suspended)
    replies = pipe.execute()
    return read_page(
        ids,
        replies,
        page,
        count,
        viewer=viewer,
        where=where,
        kept=kept,
        suspended=suspended,
        generation=generation,
        audience=audience,
    )


def kept_statuses(entries: list, count: int) -> tuple[list[str], dict[str, Status], int]:
    """The ids of a page read with their scores (`entries`, POSTED), those of its first
    `count` statuses kept in the process, and the cache's generation for `read_page`."""
    generation = cache.statuses.generation()
    kept = cache.statuses.get_many(entries[:count])
    return [status_id for status_id, _ in entries], kept, generation


def shown_status(
    status_id: int, *, viewer: int | None = None, include_suspended: bool = False
) -> Status | None:
    """One status as a timeline would show it (a repost with its "original"), marked for
    `viewer` as pages are; None if it is gone, or (unless `include_suspended`) hidden as
    its author's (or its original's author's) are suspended. 1 round trip, 2 for a repost."""
    pipe = PackedPipeline(get_redis())
    queue_statuses(pipe, [str(status_id)], 1, viewer)
    replies = pipe.execute()
    page = read_page(
        [str(status_id)], replies, 1, 1, viewer=viewer, include_suspended=include_suspended
    )
    statuses = page.statuses
    return statuses[0] if statuses else None


def original(
    status_id: int | str, *, hide_suspended: bool = True, viewer: int | None = None
) -> Status:
    """The status `status_id`, or its original if it is a repost (1 more round trip);
    StatusGone if it is gone, `status_id` isn't an id, or (unless not `hide_suspended`)
    a suspended user wrote it or its original, or timeline.safety's rule hides it from
    `viewer`: to them those read as deleted, so they may not answer or repost them."""
    shown = shown_status(
        status_id_of(status_id), viewer=viewer, include_suspended=not hide_suspended
    )
    if shown is None:
        raise StatusGone(GONE)
    return shown.get("original") or shown


def timeline_page(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30, *, marked: bool = True
) -> Page:
    """A page of `uid`'s home or profile timeline as they see it (unless `marked`, without
    their likes and reposts marks: see posted_page)."""
    if timeline not in TIMELINES:
        raise ValueError(f"Unknown timeline {timeline!r}")
    if timeline == "home":
        return home_timeline_page(uid, page, count, marked=marked)
    return posted_page(TIMELINES[timeline](uid), page, count, viewer=uid, marked=marked)


def home_timeline_page(uid: int, page: int, count: int, *, marked: bool) -> Page:
    """A page of `uid`'s home, as posted_page reads a timeline (1 round trip when its
    statuses are all kept, unless `marked`, and the home is in order)."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    queue_home_ids(pipe, uid, page, count)
    pipe.smembers(SUSPENDED_USERS)
    if not marked:
        safety.queue_audience(pipe, uid)
    window, epoch, suspended, *rule_reads = pipe.execute()
    audience = None if marked else safety.read_audience(uid, rule_reads)
    read = home_ids(uid, [window, epoch], page, count)
    shown, _, _ = home_statuses(conn, read, page, count, suspended, audience=audience)
    return shown


def home_statuses(
    conn,
    read: HomeIds,
    page: int,
    count: int,
    suspended: list,
    *,
    audience: safety.Audience | None = None,
    queue_more: Callable = lambda pipe: None,
) -> tuple[Page, Any, list]:
    """A home page's second round trip, given its `read` ids: its statuses (marked for
    their reader unless their `audience` was read with the ids), the upkeep the read found
    wanting (queue_home_upkeep), and what `queue_more` queues on the same pipeline.
    Returns the Page, what `queue_more` returned and the replies to its reads."""
    pipe = PackedPipeline(conn)
    viewer = read.uid if audience is None else None
    added = queue_statuses(pipe, read.ids, count, viewer, kept=read.kept, suspended=suspended)
    more = queue_more(pipe)
    upkeep = queue_home_upkeep(pipe, read)
    replies = pipe.execute()
    shown = read_page(
        read.ids,
        replies[:added],
        page,
        count,
        viewer=read.uid,
        where=safety.HOME,
        kept=read.kept,
        suspended=suspended,
        generation=read.generation,
        audience=audience,
        epoch=upkept_epoch(read, replies),
    )
    return shown, more, replies[added : len(replies) - upkeep]


def get_status_messages(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30
) -> list[Status]:
    """A page of `uid`'s home or profile timeline, newest first, without deleted statuses
    or those the safety rule hides from them (1 round trip when the statuses are kept)."""
    return timeline_page(uid, timeline, page, count, marked=False).statuses


@dataclass(frozen=True, slots=True)
class HomePage:
    user: UserProfile
    page: Page
    # Who to follow (discovery.suggestions), read with the page.
    suggestions: list[UserProfile]
    # Being rebuilt after a pause (feeds.homes): the page says it is catching up.
    catching_up: bool = False


def queue_home(pipe, uid: int, page: int = 1, count: int = 30) -> None:
    """Queues home_page's first reads (5 replies, for its `first`)."""
    queue_home_ids(pipe, uid, page, count)
    pipe.smembers(SUSPENDED_USERS)
    pipe.hgetall(user_key(uid))
    suggestions.queue_read(pipe, uid)


def home_page(
    uid: int, page: int = 1, count: int = 30, *, first: list | None = None
) -> HomePage | None:
    """`uid`'s home timeline as they see it, with their profile and whom to follow (the
    page's sidebar): 2 round trips, 3 if it shows reposts; one fewer given `first`, the
    replies to queue_home's reads made with another step's (the session's, see
    accounts.backends.read_with_user). None for an unknown user."""
    conn = get_redis()
    if first is None:
        pipe = PackedPipeline(conn)
        queue_home(pipe, uid, page, count)
        first = pipe.execute()
    window, epoch, suspended, user, suggested_uids = first
    profile = decode_user(user)
    if profile is None:
        return None
    catching_up = refill.note_home_read(conn, uid, user)
    read = home_ids(uid, [window, epoch], page, count)
    shown, suggested, replies = home_statuses(
        conn,
        read,
        page,
        count,
        suspended,
        queue_more=lambda pipe: suggestions.queue_profiles(pipe, uid, suggested_uids),
    )
    return HomePage(
        user=profile,
        page=shown,
        suggestions=suggestions.decode(suggested, replies),
        catching_up=catching_up,
    )


def global_timeline_page(page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """The newest statuses of everyone (but private accounts')."""
    return posted_page(keys.GLOBAL_TIMELINE, page, count, viewer=viewer, where=safety.GLOBAL)


def users_page(key: str, page: int, count: int) -> tuple[list[UserProfile], bool]:
    """Page `page` (from 1) of the profiles in the sorted set at `key`, newest first, and
    whether an older page exists: 2 round trips."""
    uids = page_ids(get_redis(), key, page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count


def with_originals(statuses: list[Status], viewer: int | None = None) -> list[Status]:
    """`statuses` with each repost's original as its "original" (1 round trip if there are
    reposts), marked for `viewer` (see statuses.marks), leaving out reposts whose original
    is gone. (Reposts of hidden users' statuses were left out already: a repost names
    its original's author.)"""
    reposts = [s for s in statuses if s.get("repost_of")]
    if not reposts:
        return statuses
    originals = [repost["repost_of"] for repost in reposts]
    pipe = PackedPipeline(get_redis())
    pipe.for_each_key(map(keys.status_key, originals), ("HGETALL",))
    queue_marks(pipe, viewer, originals)
    replies = pipe.execute()
    for repost, fields in zip(reposts, replies[: len(reposts)], strict=True):
        repost["original"] = decode_status(repost["repost_of"], fields)
    apply_marks([repost["original"] for repost in reposts], replies[len(reposts) :])
    return [s for s in statuses if not s.get("repost_of") or s["original"]]


@dataclass(frozen=True)
class Cursor:
    """Where a page of a timeline starts, as Mastodon's API says it (status ids): older
    than `max_id`, newer than `since_id` (the newest of those), or just newer than
    `min_id` (the oldest of those). Each bound is the score the status has in that
    timeline (when it was posted, liked...), or failing that when it was posted; in a
    home, its id (home_cursor_ids)."""

    max_id: int | None = None
    since_id: int | None = None
    min_id: int | None = None


# The sorted-set timelines a Cursor pages, by name: each key from its owner (a uid, a
# list id, a tag), the global one from none (all scored POSTED). And "home", which holds
# ids (home_cursor_ids).
CURSOR_TIMELINES = {
    "profile": keys.profile_timeline_key,
    "likes": keys.likes_key,
    "mentions": keys.mentions_timeline_key,
    "list": keys.list_timeline_key,
    "tag": keys.tag_timeline_key,
    "global": lambda _owner: keys.GLOBAL_TIMELINE,
}


def cursor_page(
    timeline: str, owner, cursor: Cursor, count: int, *, viewer: int | None = None
) -> Page:
    """Up to `count` statuses of a timeline (CURSOR_TIMELINES, or "home") between
    `cursor`'s bounds, newest first, marked for `viewer` as pages are: 3 round trips
    (the bounds' scores, the ids, the statuses), 4 if it shows reposts; a home's 2 (its
    bounds are ids: home_cursor_ids). A bound whose status is gone and no longer in the
    timeline gives an empty page (but a home's). Statuses of one timeline with the very
    same score (to the microsecond) may be skipped at a page's edge."""
    if count < 1:
        raise ValueError("Pages take 1 status or more.")
    conn = get_redis()
    ids: list[str] | None
    if timeline == "home":
        ids = home_cursor_ids(conn, owner, cursor, count)
    else:
        ids = scored_cursor_ids(conn, CURSOR_TIMELINES[timeline](owner), cursor, count)
        if ids is None:
            return Page(statuses=[], number=1, has_older=False)
    pipe = PackedPipeline(conn)
    queue_statuses(pipe, ids, count, viewer)
    where = SHOWN_WHERE.get(timeline, safety.ANYWHERE)
    return read_page(ids, pipe.execute(), 1, count, viewer=viewer, where=where)


def scored_cursor_ids(conn, key: str, cursor: Cursor, count: int) -> list[str] | None:
    """Up to `count` + 1 ids of the sorted set at `key` (POSTED) between `cursor`'s
    bounds (see Cursor), newest first; None if a bound's status is gone and no longer
    there: 2 round trips."""
    bounds = [b for b in (cursor.max_id, cursor.since_id, cursor.min_id) if b is not None]
    at: dict[int | None, float | None] = {}
    if bounds:
        pipe = conn.pipeline(transaction=False)
        for status_id in bounds:
            pipe.zscore(key, status_id)
            pipe.hmget(keys.status_key(status_id), layout.POSTED_FIELDS)
        found = pipe.execute()
        # A bound's score in the timeline, or failing that the score it would have had.
        at = {}
        for status_id, in_timeline, stored in zip(bounds, found[::2], found[1::2], strict=True):
            if in_timeline is None:
                posted = layout.read_posted(*stored)
                in_timeline = None if posted is None else POSTED.score(posted)
            at[status_id] = in_timeline
        if None in at.values():
            return None
    newer = next((at[b] for b in (cursor.min_id, cursor.since_id) if b is not None), None)
    older = at.get(cursor.max_id)
    oldest_first = cursor.min_id is not None
    ids = POSTED.between(
        conn, key, count + 1, older_than=older, newer_than=newer, oldest_first=oldest_first
    )
    if oldest_first:
        # The oldest `count` newer than min_id, shown newest first.
        ids = ids[:count][::-1] + ids[count:]
    return ids


def home_cursor_ids(conn, uid: int, cursor: Cursor, count: int) -> list[str]:
    """Up to `count` + 1 ids of `uid`'s home between `cursor`'s bounds, newest first: ids
    come from one counter, so a status is older than another exactly when its id is lower
    (a repost by its own id: when it was reposted, as a home orders it). 1 round trip:
    with no bound, the head of the home (as a page reads it); with one, all of it (up to
    HOME_TIMELINE_SIZE and a trim's margin: feeds.home_list)."""
    stop = count if cursor == Cursor() else -1
    window = home_list.queue_window(conn, uid, stop)
    ids = home_list.shown(window)[0][: settings.HOME_TIMELINE_SIZE]
    if cursor.max_id is not None:
        ids = [i for i in ids if int(i) < cursor.max_id]
    newer = next((b for b in (cursor.min_id, cursor.since_id) if b is not None), None)
    if newer is not None:
        ids = [i for i in ids if int(i) > newer]
    if cursor.min_id is not None:
        # The oldest `count` newer than min_id, shown newest first (and one more, the
        # next newer, as a sorted set's page has it).
        return ids[-count:] + ids[-count - 1 : -count][:1]
    return ids[: count + 1]
