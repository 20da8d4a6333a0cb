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

from dataclasses import dataclass

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from accounts.services import decode_user, get_users
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..discovery import suggestions
from ..safety import selectors as safety
from ..scores import HOME, POSTED, Scores
from ..statuses import cache, layout
from ..statuses.selectors import (
    GONE,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)
from . import refill

# A named timeline's key from its owner, and its scores.
TIMELINES = {
    "home": (keys.home_timeline_key, HOME),
    "profile": (keys.profile_timeline_key, POSTED),
}
# Where a named timeline shows its statuses, for timeline.safety's rule (home: mutes
# too; global: never a private status); any other shows them ANYWHERE.
SHOWN_WHERE = {"home": safety.HOME, "global": safety.GLOBAL}
# Nine digits keep (page - 1) * count far inside the 64-bit offsets Redis takes.
LAST_PAGE = 999_999_999


@dataclass(frozen=True)
class Page:
    statuses: list[dict]
    number: int
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def page_ids(
    client,
    key: str,
    page: int,
    count: int,
    *,
    length: int | None = None,
    withscores=False,
    scores: Scores = POSTED,
):
    """The ids of page `page` (from 1) of the sorted set at `key`, newest first as
    `scores` orders it, on a connection or a pipeline, within its newest `length` entries
    if given (a home may hold a few more than HOME_TIMELINE_SIZE until its next trim:
    fanout.trims_homes). One id more than asked tells whether an older page exists."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    if page > LAST_PAGE:
        raise ValueError(f"Pages go up to {LAST_PAGE:,}.")
    start = (page - 1) * count
    stop = start + count if length is None else min(start + count, length - 1)
    return scores.newest(client, key, start, stop, withscores=withscores)


def queue_statuses(
    pipe: PackedPipeline,
    ids: list[str],
    count: int,
    viewer: int | None,
    *,
    kept: dict[str, dict] | None = None,
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
    kept: dict[str, dict] | None = None,
    suspended: list | None = None,
    generation: int | None = None,
    audience: safety.Audience | None = None,
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
        cache.statuses.keep(fetched, generation)
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
        statuses = [s for s in statuses if s and not is_hidden(s, hidden)]
    else:
        statuses = [s for s in statuses if s]
    if where == safety.HOME:
        # Fan-out delivers a status only to its author's followers, and whatever ends a
        # follow takes the author's statuses out of home: its authors are followed.
        audience.follows.update(s["uid"] for s in statuses)
    statuses = with_originals(statuses, viewer)
    if not include_suspended:
        statuses = safety.visible(None, statuses, audience, where=where)
    return Page(statuses=statuses, number=page, has_older=len(ids) > count)


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
    length: int | None = None,
    marked: bool = True,
    scores: Scores = POSTED,
) -> Page:
    """As statuses_page, for a timeline scored by the time each status was posted (home,
    profile, global: as `scores` says), whose statuses are kept in the process
    (statuses.cache): its ids
    and the suspended-user set, then the statuses not kept with the viewer's marks, if
    any are needed. 1 round trip when all are kept and there is no viewer, else 2 (3 if
    it shows reposts). Unless `marked`, the statuses come without the viewer's likes and
    reposts marks, the viewer's reads for the safety rule go with the
    ids, and the page is 1 round trip when all are kept."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    page_ids(pipe, key, page, count, length=length, withscores=True, scores=scores)
    pipe.smembers(SUSPENDED_USERS)
    if not marked:
        safety.queue_audience(pipe, viewer)
    entries, suspended, *rule_reads = pipe.execute()
    audience = None if marked else safety.read_audience(viewer, rule_reads)
    ids, kept, generation = kept_statuses(entries, count, scores)
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


def kept_statuses(
    entries: list, count: int, scores: Scores
) -> tuple[list[str], dict[str, dict], int]:
    """The ids of a page read with their scores (`entries`, scored as `scores` says),
    those of its first `count` statuses kept in the process, and the cache's generation
    for `read_page`."""
    generation = cache.statuses.generation()
    kept = cache.statuses.get_many(entries[:count], scores)
    return [status_id for status_id, _ in entries], kept, generation


def shown_status(
    status_id: int, *, viewer: int | None = None, include_suspended: bool = False
) -> dict | None:
    """One status as a timeline would show it (a repost with its "original"), marked for
    `viewer` as pages are; None if it is gone, or (unless `include_suspended`) hidden as
    its author's (or its original's author's) are suspended. 1 round trip, 2 for a repost."""
    pipe = PackedPipeline(get_redis())
    queue_statuses(pipe, [status_id], 1, viewer)
    replies = pipe.execute()
    page = read_page([status_id], replies, 1, 1, viewer=viewer, include_suspended=include_suspended)
    statuses = page.statuses
    return statuses[0] if statuses else None


def original(status_id, *, hide_suspended: bool = True, viewer: int | None = None) -> dict:
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
    where = SHOWN_WHERE.get(timeline, safety.ANYWHERE)
    length = settings.HOME_TIMELINE_SIZE if timeline == "home" else None
    key, scores = TIMELINES[timeline]
    return posted_page(
        key(uid),
        page,
        count,
        viewer=uid,
        where=where,
        length=length,
        marked=marked,
        scores=scores,
    )


def get_status_messages(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30
) -> list[dict]:
    """A page of `uid`'s home or profile timeline, newest first, without deleted statuses
    or those the safety rule hides from them (1 round trip when the statuses are kept)."""
    return timeline_page(uid, timeline, page, count, marked=False).statuses


@dataclass(frozen=True)
class HomePage:
    user: dict
    page: Page
    # Who to follow (discovery.suggestions), read with the page.
    suggestions: list[dict]
    # Being rebuilt after a pause (feeds.homes): the page says it is catching up.
    catching_up: bool = False


def queue_home(pipe, uid: int, page: int = 1, count: int = 30) -> None:
    """Queues home_page's first reads (4 replies, for its `first`)."""
    home = keys.home_timeline_key(uid)
    page_ids(
        pipe, home, page, count, length=settings.HOME_TIMELINE_SIZE, withscores=True, scores=HOME
    )
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
    entries, suspended, user, suggested_uids = first
    if not user:
        return None
    catching_up = refill.note_home_read(conn, uid, user)
    ids, kept, generation = kept_statuses(entries, count, HOME)
    pipe = PackedPipeline(conn)
    added = queue_statuses(pipe, ids, count, uid, kept=kept, suspended=suspended)
    suggested = suggestions.queue_profiles(pipe, uid, suggested_uids)
    replies = pipe.execute()
    shown = read_page(
        ids,
        replies[:added],
        page,
        count,
        viewer=uid,
        where=safety.HOME,
        kept=kept,
        suspended=suspended,
        generation=generation,
    )
    return HomePage(
        user=decode_user(user),
        page=shown,
        suggestions=suggestions.decode(suggested, replies[added:]),
        catching_up=catching_up,
    )


def global_timeline_page(page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """The newest statuses of everyone (but private accounts')."""
    return posted_page(keys.GLOBAL_TIMELINE, page, count, viewer=viewer, where=safety.GLOBAL)


def users_page(key: str, page: int, count: int) -> tuple[list[dict], bool]:
    """Page `page` (from 1) of the profiles in the sorted set at `key`, newest first, and
    whether an older page exists: 2 round trips."""
    uids = page_ids(get_redis(), key, page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count


def with_originals(statuses: list[dict], viewer: int | None = None) -> list[dict]:
    """`statuses` with each repost's original as its "original" (1 round trip if there are
    reposts), marked for `viewer` (see queue_marks), leaving out reposts whose original
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


def queue_marks(pipe: PackedPipeline, uid: int | None, ids: list) -> int:
    """Queues the reads that tell whether `uid` liked and reposted each of `ids`, for
    `apply_marks`: nothing for no one. Returns how many replies they add."""
    if not uid or not ids:
        return 0
    pipe.zmscore(keys.likes_key(uid), ids)
    pipe.for_each_key(map(keys.reposts_key, ids), ("ZSCORE", uid))
    return 1 + len(ids)


def apply_marks(statuses: list[dict | None], replies: list) -> None:
    """Marks each of `statuses` (None for one that is gone) `liked` and `reposted` from
    the replies to `queue_marks` for their ids (none: nothing to mark)."""
    if not replies:
        return
    liked, *reposted = replies
    for status, like_time, repost_id in zip(statuses, liked, reposted, strict=True):
        if status is not None:
            status["liked"] = like_time is not None
            status["reposted"] = repost_id is not None


@dataclass(frozen=True)
class Cursor:
    """Where a page of a timeline starts, as Mastodon's API says it (status ids): older
    than `max_id`, newer than `since_id` (the newest of those), or just newer than
    `min_id` (the oldest of those). Each bound is the score the status has in that
    timeline (when it was posted, liked...), or failing that when it was posted."""

    max_id: int | None = None
    since_id: int | None = None
    min_id: int | None = None


# The timelines a Cursor pages, by name: each key from its owner (a uid, a list id, a
# tag), the global one from none, and its scores.
CURSOR_TIMELINES = {
    "home": (keys.home_timeline_key, HOME),
    "profile": (keys.profile_timeline_key, POSTED),
    "likes": (keys.likes_key, POSTED),
    "mentions": (keys.mentions_timeline_key, POSTED),
    "list": (keys.list_timeline_key, POSTED),
    "tag": (keys.tag_timeline_key, POSTED),
    "global": (lambda _owner: keys.GLOBAL_TIMELINE, POSTED),
}


def cursor_page(
    timeline: str, owner, cursor: Cursor, count: int, *, viewer: int | None = None
) -> Page:
    """Up to `count` statuses of a timeline (CURSOR_TIMELINES) between `cursor`'s
    bounds, newest first, marked for `viewer` as pages are: 3 round trips (the bounds'
    scores, the ids, the statuses), 4 if it shows reposts. A bound whose status is gone
    and no longer in the timeline gives an empty page. Statuses of one timeline with
    the very same score (to the microsecond) may be skipped at a page's edge."""
    if count < 1:
        raise ValueError("Pages take 1 status or more.")
    timeline_key, scores = CURSOR_TIMELINES[timeline]
    key = timeline_key(owner)
    conn = get_redis()
    bounds = [b for b in (cursor.max_id, cursor.since_id, cursor.min_id) if b is not None]
    at = {}
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
                in_timeline = None if posted is None else scores.score(posted)
            at[status_id] = in_timeline
        if None in at.values():
            return Page(statuses=[], number=1, has_older=False)
    newer = next((at[b] for b in (cursor.min_id, cursor.since_id) if b is not None), None)
    older = at.get(cursor.max_id)
    oldest_first = cursor.min_id is not None
    ids = scores.between(
        conn, key, count + 1, older_than=older, newer_than=newer, oldest_first=oldest_first
    )
    if oldest_first:
        # The oldest `count` newer than min_id, shown newest first.
        ids = ids[:count][::-1] + ids[count:]
    pipe = PackedPipeline(conn)
    queue_statuses(pipe, ids, count, viewer)
    where = SHOWN_WHERE.get(timeline, safety.ANYWHERE)
    return read_page(ids, pipe.execute(), 1, count, viewer=viewer, where=where)
