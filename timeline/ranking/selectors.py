"""Home ordered by importance ("Top"): the home entries of the last TOP_WINDOW_HOURS the
reader may see, best first by ranking.scores, each with one line saying why.

3 round trips whatever the home holds, none of them a scan: what Top needs is kept as
the actions happen (a status's counts in its hash; the reader's affinity in their slot,
ranking.affinity).

1. The head of the home (TOP_CANDIDATES ids), the suspended-user set, the reader's
   profile, kept suggestions, blocks, mutes and muted words, affinity and follows (all
   the reader's slot but the suspended set): it may ride the session's round trip.
2. The candidates' statuses not kept in the process (statuses.cache), the suggestions'
   profiles and the home's upkeep (feeds.home_page): scored in the process.
3. For the page's statuses: reposts' originals, the reader's likes and reposts marks, and
   who liked each lately (its newest LIKERS_READ likers), for "liked by N people you
   follow"."""

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from socialsite.redis import Client, PackedPipeline, Pipe, Reply, get_redis

from .. import keys
from ..audience import selectors as safety
from ..discovery import suggestions
from ..feeds.home_page import (
    HomeIdsRead,
    HomePage,
    assemble_home,
    home_ids,
    home_statuses,
    queue_home_ids,
)
from ..feeds.pages import Page, shown_once
from ..follow_sets import following, members
from ..media.selectors import with_attachments
from ..quotes.selectors import with_quotes
from ..statuses.marks import queue_marks
from ..statuses.records import Status
from ..statuses.selectors import decode_status, hidden_uids
from . import affinity, scores

# Likers read a status on Top's page: "liked by N people you follow" counts among them.
LIKERS_READ = 50
# Statuses scored past the page's end, for any the rule hides once their originals are read.
MARGIN = 5
TOP, LATEST = "top", "latest"
ORDERS = (LATEST, TOP)
# The reader's remembered order, a field of their profile (read with their session).
ORDER_FIELD = "home_order"


@dataclass(frozen=True, slots=True)
class TopFirstReads:
    """Top's first reads (`queue_top`)."""

    ids: HomeIdsRead
    suspended: Reply
    user: Reply
    suggested: suggestions.KeptRead
    audience: safety.AudienceRead
    affinity: affinity.AffinityRead
    following: following.EveryoneRead
    groups: Reply  # the reader's groups, for the post box's group picker


def queue_top(pipe: Pipe, uid: int, page: int = 1, count: int = 30) -> TopFirstReads:
    """Queues Top's first reads of `uid`'s home (for top_page's `first`); `page` and
    `count` are those of the page (all candidates are read whatever the page)."""
    return TopFirstReads(
        ids=queue_home_ids(pipe, uid, 1, settings.TOP_CANDIDATES),
        suspended=pipe.smembers(SUSPENDED_USERS),
        user=pipe.hgetall(user_key(uid)),
        suggested=suggestions.queue_read(pipe, uid),
        audience=safety.queue_audience(pipe, uid),
        affinity=affinity.queue_read(pipe, uid),
        following=following.queue_everyone(pipe, uid),
        groups=members.queue_groups_of(pipe, uid),
    )


def top_page(
    uid: int, page: int = 1, count: int = 30, *, first: TopFirstReads | None = None
) -> HomePage | None:
    """`uid`'s home ordered by importance, page `page` of `count`, with their profile and
    whom to follow: 3 round trips (2 given `first`, queue_top's reads made with another
    step's: the session's). None for an unknown user."""
    conn = get_redis()
    if first is None:
        pipe = PackedPipeline(conn)
        first = queue_top(pipe, uid, page, count)
        pipe.execute()

    def read_statuses(queue_more: Any) -> tuple[Page, Any]:
        statuses, has_older, profiles = ranked_statuses(
            conn, uid, first, (page - 1) * count, count, queue_more=queue_more
        )
        return Page(statuses=statuses, number=page, has_older=has_older), profiles

    return assemble_home(conn, uid, first, read_statuses)


def top_statuses(uid: int, *, offset: int = 0, count: int = 20) -> tuple[list[Status], bool]:
    """`count` statuses of `uid`'s home ordered by importance from rank `offset`, and
    whether more follow: 3 round trips (the client API's `order=top`)."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    first = queue_top(pipe, uid)
    pipe.execute()
    statuses, more, _ = ranked_statuses(conn, uid, first, offset, count)
    return statuses, more


def ranked_statuses(
    conn: Client,
    uid: int,
    first: TopFirstReads,
    start: int,
    count: int,
    *,
    queue_more: Any = lambda pipe: None,
) -> tuple[list[Status], bool, Any]:
    """Top's second and third round trips, given its `first` reads: `count` statuses from
    rank `start`, each with its `why`, whether more follow, and what `queue_more` queued
    on the second round trip (its handles, filled)."""
    now = time.time()
    read = home_ids(first.ids)
    candidates, more = home_statuses(
        conn,
        read,
        1,
        settings.TOP_CANDIDATES,
        first.suspended,
        audience=first.audience,
        queue_more=queue_more,
        originals=False,
    )
    since = now - settings.TOP_WINDOW_HOURS * 3600
    recent = shown_once([s for s in candidates.statuses if s["posted"] >= since])
    reader = first.affinity.affinity(now)
    scorer = scores.Scorer(reader, now)
    ranked = scorer.ranked(recent)
    chosen = [scorer.score(status) for status in ranked[start : start + count + MARGIN]]
    shown = _shown(conn, uid, chosen, reader, first)
    return shown[:count], len(ranked) > start + count, more


def _shown(
    conn: Client,
    uid: int,
    chosen: list[scores.Scored],
    reader: affinity.Affinity,
    first: TopFirstReads,
) -> list[Status]:
    """The `chosen` statuses as Top shows them (1 round trip): reposts with their
    originals, marked for `uid`, each with its `why`, less those the rule hides."""
    statuses = [scored.status.copy() for scored in chosen]
    if not statuses:
        return []
    originals = [int(s["repost_of"]) for s in statuses if s.get("repost_of")]
    # What is liked: the status, or a repost's original.
    liked = [int(s.get("repost_of") or s["id"]) for s in statuses]
    pipe = PackedPipeline(conn)
    hashes = pipe.for_each_key(map(keys.status_key, originals), ("HGETALL",)) if originals else None
    marks = queue_marks(pipe, uid, [s["id"] for s in statuses])
    original_marks = queue_marks(pipe, uid, originals)
    # Only where there are likes to count (a repost's original's, unknown until now).
    asked = [i for i, s in zip(liked, statuses, strict=True) if s["likes"] or s.get("repost_of")]
    likers = (
        pipe.for_each_key(map(keys.likers_key, asked), ("ZRANGE", 0, LIKERS_READ - 1, "REV"))
        if asked
        else None
    )
    pipe.execute()
    likers_of = {} if likers is None else dict(zip(asked, likers.value, strict=True))
    marks.apply([*statuses])
    found = {}
    if hashes is not None:
        found = {
            i: decode_status(i, fields) for i, fields in zip(originals, hashes.value, strict=True)
        }
        original_marks.apply(list(found.values()))
    # As read (text): no int() of each follow and liker. (The reader follows not themself.)
    followed = {followee for reply in first.following.held for followee in reply.value}
    for status, scored, of in zip(statuses, chosen, liked, strict=True):
        if status.get("repost_of"):
            status["original"] = found.get(int(status["repost_of"]))
        login = str(status.get("repost_of_login") or status["login"])
        by_followed = len(followed.intersection(likers_of.get(of, ())))
        status["why"] = scores.why(scored, reader, by_followed, login)
    present = [s for s in statuses if not s.get("repost_of") or s.get("original")]
    audience = first.audience.audience
    # A home holds only what fan-out delivered to a follower (feeds.pages.read_page).
    audience.follows.update(int(s["uid"]) for s in present)
    shown = safety.visible(conn, present, audience, where=safety.HOME)
    # Quotes: reposted quotes' quoted statuses (the page read attached the others').
    with_quotes(shown, audience, hidden_uids(first.suspended.value), conn)
    # Media (mediaweb): reposted statuses' attachments (the page read attached the others').
    with_attachments([s for s in shown if "attachments" not in s], conn=conn)
    return shown
