"""Paging a timeline by cursor, as Mastodon's API does: statuses older or newer than a
given status (`Cursor`), for the sorted-set timelines scored by when each status was
posted (POSTED) and for a home (whose ids order it)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from socialsite.redis import Batch, Client, PackedPipeline, get_redis

from .. import keys
from ..audience import selectors as safety
from ..quotes.keys import quotes_key
from ..statuses import layout
from ..statuses.scores import POSTED
from . import home_list
from .pages import Page, queue_statuses, read_page

# Where a named timeline shows its statuses, for timeline.audience's rule (home: mutes
# too; global: never a private status); any other shows them ANYWHERE.
SHOWN_WHERE = {"home": safety.HOME, "global": safety.GLOBAL}


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
CURSOR_TIMELINES: dict[str, Callable[[Any], str]] = {
    "profile": keys.profile_timeline_key,
    "likes": keys.likes_key,
    "bookmarks": keys.bookmarks_key,
    "mentions": keys.mentions_timeline_key,
    "list": keys.list_timeline_key,
    "tag": keys.tag_timeline_key,
    "group": keys.group_timeline_key,
    "global": lambda _owner: keys.GLOBAL_TIMELINE,
    # Quotes: a status's quotes (timeline.quotes).
    "quotes": quotes_key,
}


def cursor_page(
    timeline: str,
    # A uid, a list id, a tag or None, as `timeline` names its owner.
    owner: Any,
    cursor: Cursor,
    count: int,
    *,
    viewer: int | None = None,
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
    read = queue_statuses(pipe, ids, count, viewer)
    pipe.execute()
    return read_page(read, 1, where=SHOWN_WHERE.get(timeline, safety.ANYWHERE))


def scored_cursor_ids(conn: Client, key: str, cursor: Cursor, count: int) -> list[str] | None:
    """Up to `count` + 1 ids of the sorted set at `key` (POSTED) between `cursor`'s
    bounds (see Cursor), newest first; None if a bound's status is gone and no longer
    there: 2 round trips."""
    bounds = [b for b in (cursor.max_id, cursor.since_id, cursor.min_id) if b is not None]
    at: dict[int, float | None] = {}
    if bounds:
        batch = Batch(conn)
        found = [
            (
                status_id,
                batch.zscore(key, status_id),
                batch.hmget(keys.status_key(status_id), layout.POSTED_FIELDS),
            )
            for status_id in bounds
        ]
        batch.execute()
        # A bound's score in the timeline, or failing that the score it would have had.
        for status_id, in_timeline, stored in found:
            score = in_timeline.value
            if score is None:
                posted = layout.read_posted(*stored.value)
                score = None if posted is None else POSTED.score(posted)
            at[status_id] = score
        if None in at.values():
            return None
    newer = next((at[b] for b in (cursor.min_id, cursor.since_id) if b is not None), None)
    older = None if cursor.max_id is None else at.get(cursor.max_id)
    oldest_first = cursor.min_id is not None
    ids = POSTED.between(
        conn, key, count + 1, older_than=older, newer_than=newer, oldest_first=oldest_first
    )
    if oldest_first:
        # The oldest `count` newer than min_id, shown newest first.
        ids = ids[:count][::-1] + ids[count:]
    return ids


def home_cursor_ids(conn: Client, uid: int, cursor: Cursor, count: int) -> list[str]:
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
