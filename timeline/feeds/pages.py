"""A page of statuses: the reads that show a page's ids (`queue_statuses`, one round
trip with the suspended-user set, the viewer's likes and reposts of them and the
viewer's blocks and mutes, timeline.audience's rule), the Page they make (`read_page`),
and the timelines read that way (statuses_page, posted_page, shown_status).

A page is 2 round trips: its ids, then the statuses; a third when it shows reposts, for
their originals, and one when it holds others' private statuses by authors the page
doesn't know the viewer follows. Statuses live in their own slots, so one
cluster-legal round trip can't read ids and statuses together."""

from dataclasses import dataclass
from typing import Any

from accounts.keys import SUSPENDED_USERS
from accounts.records import UserProfile
from accounts.services import get_users
from socialsite.redis import Client, PackedPipeline, Reply, get_redis

from .. import keys
from ..audience import selectors as safety
from ..media.selectors import with_attachments
from ..quotes.selectors import with_quotes
from ..statuses import cache
from ..statuses.marks import MarksRead, queue_marks
from ..statuses.records import Status
from ..statuses.scores import POSTED
from ..statuses.selectors import (
    GONE,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)

# Nine digits keep (page - 1) * count far inside the 64-bit offsets Redis takes.
LAST_PAGE = 999_999_999


@dataclass(frozen=True)
class Page:
    statuses: list[Status]
    number: int
    has_older: bool
    # The viewer's filters, read with the rule's reads (accounts.filters), for the client
    # API's `filtered`: None where the page didn't read them.
    viewer_filters: tuple[dict[str, Any], ...] | None = None

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
    client: Client,
    key: str,
    page: int,
    count: int,
    *,
    length: int | None = None,
    withscores: bool = False,
) -> Any:
    """The ids of page `page` (from 1) of the sorted set at `key`, newest first (POSTED),
    on a connection (or a pipeline: its handle), within its newest `length` entries if
    given. One id more than asked tells whether an older page exists."""
    start, stop = page_span(page, count, length)
    return POSTED.newest(client, key, start, stop, withscores=withscores)


@dataclass(frozen=True, slots=True)
class StatusesRead:
    """The reads `queue_statuses` queued for a page: its `ids` as read (one more than
    `count` if an older page exists), the statuses not `kept` in the process, the
    suspended-user set, `viewer`'s marks and what timeline.audience's rule needs of them."""

    ids: list[str]
    count: int
    viewer: int | None
    missing: list[str]
    kept: dict[str, Status] | None
    generation: int | None
    hashes: Reply | None
    suspended: Reply
    marks: MarksRead
    audience: safety.AudienceRead


def queue_statuses(
    pipe: PackedPipeline,
    ids: list[str],
    count: int,
    viewer: int | None,
    *,
    kept: dict[str, Status] | None = None,
    generation: int | None = None,
    suspended: Reply | None = None,
    audience: safety.AudienceRead | None = None,
    marked: bool = True,
) -> StatusesRead:
    """Queues the (small) suspended-user set (unless read already: `suspended`), the
    status hashes of the first `count` of `ids` (but those `kept` in the process, under
    the cache's `generation`), whether `viewer` liked or reposted them (unless not
    `marked`) and the viewer's blocks and mutes (unless read already: `audience`)."""
    shown = ids[:count]
    missing = [i for i in shown if i not in kept] if kept else shown
    if suspended is None:
        suspended = pipe.smembers(SUSPENDED_USERS)
    hashes = pipe.for_each_key(map(keys.status_key, missing), ("HGETALL",)) if missing else None
    marks = queue_marks(pipe, viewer if marked else None, shown)
    if audience is None:
        audience = safety.queue_audience(pipe, viewer)
    return StatusesRead(
        ids, count, viewer, missing, kept, generation, hashes, suspended, marks, audience
    )


def read_page(
    read: StatusesRead,
    page: int,
    *,
    where: str = safety.ANYWHERE,
    include_suspended: bool = False,
    follows: set[int] | None = None,
    epoch: str | None = None,
    originals: bool = True,
) -> Page:
    """The Page of `read`'s statuses (1 more round trip if it shows reposts). Statuses
    of suspended users are left out unless `include_suspended` (moderators, who see
    everything), and those timeline.audience's rule hides from the viewer shown `where`;
    `follows`: authors the caller knows the viewer follows. Statuses read are kept in
    the process under `epoch` (statuses.cache) if the read has a generation. Unless
    `originals`, reposts come without theirs (no round trip; the rule then asks of a
    repost what it carries: its original's author)."""
    audience = read.audience.audience
    audience.follows.update(follows or ())
    statuses = _statuses(read, epoch)
    hidden = set() if include_suspended else hidden_uids(read.suspended.value)
    if hidden:
        present = [s for s in statuses if s and not is_hidden(s, hidden)]
    else:
        present = [s for s in statuses if s]
    if where == safety.HOME:
        # Fan-out delivers a status only to its author's followers, and whatever ends a
        # follow takes the author's statuses out of home: its authors are followed.
        audience.follows.update(s["uid"] for s in present)
        present = shown_once(present)
    if originals:
        present = with_originals(present, read.viewer)
    if not include_suspended:
        present = safety.visible(None, present, audience, where=where)
    # Quotes: each quote's quoted status as this viewer may see it (1 round trip if any).
    with_quotes(present, audience, hidden)
    # Media (mediaweb): the attachments of those with media not kept with them (reposts'
    # originals, quoted statuses): 1 round trip if any.
    with_attachments([s for s in present if "attachments" not in s])
    return Page(
        statuses=present,
        number=page,
        has_older=len(read.ids) > read.count,
        viewer_filters=audience.filters if read.viewer else None,
    )


def shown_once(statuses: list[Status]) -> list[Status]:
    """A home's statuses (newest first; Top's candidates too, timeline.ranking), each
    shown once: a repost is left out when its original is on the page too (your own
    repost of a status already in your home: the original shows it reposted) or an
    earlier repost on the page already shows it."""
    ids = {int(status["id"]) for status in statuses}
    shown: set[int] = set()
    once = []
    for status in statuses:
        original = status.get("repost_of")
        if original:
            if int(original) in ids or int(original) in shown:
                continue
            shown.add(int(original))
        once.append(status)
    return once


def _statuses(read: StatusesRead, epoch: str | None) -> list[Status | None]:
    """`read`'s statuses, kept ones served (None for one that is gone), marked for its
    viewer; those read are kept in the process if it has a generation."""
    missing, kept = read.missing, read.kept
    hashes = read.hashes.value if read.hashes is not None else ()
    fetched = [decode_status(i, fields) for i, fields in zip(missing, hashes, strict=True)]
    # Media (mediaweb): read before they are kept, the attachments are kept with them, so a
    # page of kept statuses reads none (a change to them, a transcode done, is a change to
    # the status: the cache forgets it).
    with_attachments([s for s in fetched if s])
    if fetched and read.generation is not None:
        cache.statuses.keep(fetched, read.generation, epoch)
    statuses: list[Status | None]
    if not kept:
        statuses = fetched
    elif fetched:
        by_id = {**kept, **dict(zip(missing, fetched, strict=True))}
        statuses = [by_id[i] for i in read.ids[: read.count]]
    else:
        statuses = [kept[i] for i in read.ids[: read.count]]
    # A repost is marked here too, unused: it shows its original, marked when read.
    read.marks.apply(statuses)
    return statuses


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
    hashes = pipe.for_each_key(map(keys.status_key, originals), ("HGETALL",))
    marks = queue_marks(pipe, viewer, originals)
    pipe.execute()
    for repost, fields in zip(reposts, hashes.value, strict=True):
        repost["original"] = decode_status(repost["repost_of"], fields)
    marks.apply([repost["original"] for repost in reposts])
    return [s for s in statuses if not s.get("repost_of") or s["original"]]


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
    read = queue_statuses(pipe, ids, count, viewer)
    pipe.execute()
    return read_page(read, page, where=where, include_suspended=include_suspended)


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
    entries = page_ids(pipe, key, page, count, withscores=True)
    suspended = pipe.smembers(SUSPENDED_USERS)
    audience = None if marked else safety.queue_audience(pipe, viewer)
    pipe.execute()
    ids, kept, generation = kept_statuses(entries.value, count)
    pipe = PackedPipeline(conn)
    read = queue_statuses(
        pipe,
        ids,
        count,
        viewer,
        kept=kept,
        generation=generation,
        suspended=suspended,
        audience=audience,
        marked=marked,
    )
    pipe.execute()
    return read_page(read, page, where=where)


def kept_statuses(
    entries: list[tuple[str, float]], count: int
) -> tuple[list[str], dict[str, Status], int]:
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
    read = queue_statuses(pipe, [str(status_id)], 1, viewer)
    pipe.execute()
    statuses = read_page(read, 1, include_suspended=include_suspended).statuses
    return statuses[0] if statuses else None


def original(
    status_id: int | str, *, hide_suspended: bool = True, viewer: int | None = None
) -> Status:
    """The status `status_id`, or its original if it is a repost (1 more round trip);
    StatusGone if it is gone, `status_id` isn't an id, or (unless not `hide_suspended`)
    a suspended user wrote it or its original, or timeline.audience's rule hides it from
    `viewer`: to them those read as deleted, so they may not answer or repost them."""
    shown = shown_status(
        status_id_of(status_id), viewer=viewer, include_suspended=not hide_suspended
    )
    if shown is None:
        raise StatusGone(GONE)
    return shown.get("original") or shown


def global_timeline_page(page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """The newest statuses of everyone (but private accounts')."""
    return posted_page(keys.GLOBAL_TIMELINE, page, count, viewer=viewer, where=safety.GLOBAL)


def users_page(key: str, page: int, count: int) -> tuple[list[UserProfile], bool]:
    """Page `page` (from 1) of the profiles in the sorted set at `key`, newest first, and
    whether an older page exists: 2 round trips."""
    uids = page_ids(get_redis(), key, page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count
