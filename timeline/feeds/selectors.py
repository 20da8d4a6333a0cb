"""Reading timelines: a page of any timeline's statuses (home, profile, global, and the
mentions, tag, likes and list timelines built on it), one status as a timeline shows
it, and pages of people.

A page is 2 round trips: its ids, then the statuses with the suspended-user set, the
viewer's likes and reposts of them and the viewer's unread counts (for the nav); a
third when it shows reposts, for their originals. Statuses live in their own slots,
so one cluster-legal round trip can't read ids and statuses together."""

from dataclasses import dataclass

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from accounts.services import decode_user, get_users
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..notifications.unread import decode_unread, queue_unread
from ..statuses import cache
from ..statuses.selectors import (
    GONE,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)
from . import refill

TIMELINES = {"home": keys.home_timeline_key, "profile": keys.profile_timeline_key}
# Nine digits keep (page - 1) * count far inside the 64-bit offsets Redis takes.
LAST_PAGE = 999_999_999


@dataclass(frozen=True)
class Page:
    statuses: list[dict]
    number: int
    has_older: bool
    # The viewer's unread counts for the nav, read with the page (None: no viewer).
    unread: dict | None = None

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def page_ids(
    client, key: str, page: int, count: int, *, length: int | None = None, withscores=False
):
    """ZREVRANGE for page `page` (from 1) of the sorted set at `key`, on a connection or
    a pipeline, within its newest `length` entries if given (a home may hold a few more
    than HOME_TIMELINE_SIZE until its next trim: fanout.trims_homes). One id more than
    asked tells whether an older page exists."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    if page > LAST_PAGE:
        raise ValueError(f"Pages go up to {LAST_PAGE:,}.")
    start = (page - 1) * count
    stop = start + count if length is None else min(start + count, length - 1)
    return client.zrevrange(key, start, stop, withscores=withscores)


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
    reposted them, and the viewer's unread counts, which `read_page` reads; returns how
    many replies they add."""
    shown = ids[:count]
    missing = [i for i in shown if i not in kept] if kept else shown
    added = len(missing)
    if suspended is None:
        pipe.smembers(SUSPENDED_USERS)
        added += 1
    pipe.for_each_key(map(keys.status_key, missing), ("HGETALL",))
    added += queue_marks(pipe, viewer, shown)
    if viewer:
        queue_unread(pipe, viewer)
        added += 1
    return added


def read_page(
    ids: list[str],
    replies: list,
    page: int,
    count: int,
    *,
    viewer: int | None,
    include_suspended: bool = False,
    kept: dict[str, dict] | None = None,
    suspended: list | None = None,
    generation: int | None = None,
) -> Page:
    """The Page from `queue_statuses`' replies (1 more round trip if it shows reposts).
    Statuses of suspended users are left out unless `include_suspended` (moderators).
    With `generation` (statuses.cache), the statuses read are kept in the process."""
    shown = ids[:count]
    missing = [i for i in shown if i not in kept] if kept else shown
    unread = decode_unread(replies[-1]) if viewer else None
    if viewer:
        replies = replies[:-1]
    if suspended is None:
        suspended, replies = replies[0], replies[1:]
    hashes, marks = replies[: len(missing)], replies[len(missing) :]
    hidden = set() if include_suspended else hidden_uids(suspended)
    fetched = [decode_status(fields) for fields in hashes]
    if generation is not None:
        cache.statuses.keep(fetched, generation)
    if kept:
        by_id = {**kept, **dict(zip(missing, fetched, strict=True))}
        statuses = [by_id[i] for i in shown]
    else:
        statuses = fetched
    # A repost is marked here too, unused: it shows its original, marked when read.
    apply_marks(statuses, marks)
    statuses = [s for s in statuses if s and not is_hidden(s, hidden)]
    statuses = with_originals(statuses, viewer)
    return Page(statuses=statuses, number=page, has_older=len(ids) > count, unread=unread)


def statuses_page(
    key: str,
    page: int,
    count: int,
    *,
    viewer: int | None = None,
    include_suspended: bool = False,
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
    return read_page(ids, replies, page, count, viewer=viewer, include_suspended=include_suspended)


def posted_page(
    key: str, page: int, count: int, *, viewer: int | None = None, length: int | None = None
) -> Page:
    """As statuses_page, for a timeline scored by the time each status was posted (home,
    profile, global), whose statuses are kept in the process (statuses.cache): its ids
    and the suspended-user set, then the statuses not kept with the viewer's marks, if
    any are needed. 1 round trip when all are kept and there is no viewer, else 2 (3 if
    it shows reposts)."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    page_ids(pipe, key, page, count, length=length, withscores=True)
    pipe.smembers(SUSPENDED_USERS)
    entries, suspended = pipe.execute()
    ids, kept, generation = kept_statuses(entries, count)
    pipe = PackedPipeline(conn)
    queue_statuses(pipe, ids, count, viewer, kept=kept, suspended=suspended)
    replies = pipe.execute()
    return read_page(
        ids,
        replies,
        page,
        count,
        viewer=viewer,
        kept=kept,
        suspended=suspended,
        generation=generation,
    )


def kept_statuses(entries: list, count: int) -> tuple[list[str], dict[str, dict], int]:
    """The ids of a page read with their posted times (`entries`), those of its first
    `count` statuses kept in the process, and the cache's generation for `read_page`."""
    generation = cache.statuses.generation()
    kept = {}
    for status_id, posted in entries[:count]:
        status = cache.statuses.get(status_id, posted)
        if status is not None:
            kept[status_id] = status
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


def original(status_id, *, hide_suspended: bool = True) -> dict:
    """The status `status_id`, or its original if it is a repost (1 more round trip);
    StatusGone if it is gone, `status_id` isn't an id, or (unless not `hide_suspended`)
    a suspended user wrote it or its original: everyone else sees those as deleted, so
    nobody may answer or repost them."""
    shown = shown_status(status_id_of(status_id), include_suspended=not hide_suspended)
    if shown is None:
        raise StatusGone(GONE)
    return shown.get("original") or shown


def timeline_page(uid: int, timeline: str = "home", page: int = 1, count: int = 30) -> Page:
    if timeline not in TIMELINES:
        raise ValueError(f"Unknown timeline {timeline!r}")
    length = settings.HOME_TIMELINE_SIZE if timeline == "home" else None
    return posted_page(TIMELINES[timeline](uid), page, count, length=length)


def get_status_messages(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30
) -> list[dict]:
    """A page of `uid`'s home or profile timeline, newest first, without deleted statuses."""
    return timeline_page(uid, timeline, page, count).statuses


@dataclass(frozen=True)
class HomePage:
    user: dict
    page: Page
    # Being rebuilt after a pause (feeds.homes): the page says it is catching up.
    catching_up: bool = False


def home_page(uid: int, page: int = 1, count: int = 30) -> HomePage | None:
    """`uid`'s home timeline as they see it, with their profile (the page's sidebar):
    2 round trips, 3 if it shows reposts. None for an unknown user."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    home = keys.home_timeline_key(uid)
    page_ids(pipe, home, page, count, length=settings.HOME_TIMELINE_SIZE, withscores=True)
    pipe.smembers(SUSPENDED_USERS)
    pipe.hgetall(user_key(uid))
    entries, suspended, user = pipe.execute()
    if not user:
        return None
    catching_up = refill.note_home_read(conn, uid, user)
    ids, kept, generation = kept_statuses(entries, count)
    pipe = PackedPipeline(conn)
    queue_statuses(pipe, ids, count, uid, kept=kept, suspended=suspended)
    shown = read_page(
        ids,
        pipe.execute(),
        page,
        count,
        viewer=uid,
        kept=kept,
        suspended=suspended,
        generation=generation,
    )
    return HomePage(user=decode_user(user), page=shown, catching_up=catching_up)


def global_timeline_page(page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """The newest statuses of everyone."""
    return posted_page(keys.GLOBAL_TIMELINE, page, count, viewer=viewer)


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
        repost["original"] = decode_status(fields)
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
