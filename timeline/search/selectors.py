"""Searching statuses by their words and #tags by prefix.

A status search matches the query's words' ids (services.word_keys) inside each shard of
the index, the newest shard first, until the page is full (lua/search_shard.lua): one
script (one slot) a shard, after one round trip for the newest id; then the statuses as
any timeline page reads them (1 more). Shards hold SEARCH_SHARD_STATUSES consecutive
ids, so a query matching recent statuses reads one or two; one whose matches are all
old reads every shard, in batches (SHARDS_AT_ONCE)."""

import re
import time
from dataclasses import dataclass

from django.conf import settings

from socialsite.redis import PackedPipeline, get_redis
from socialsite.text import words

from .. import keys
from ..feeds.selectors import Page, queue_statuses, read_page
from . import scripts
from .services import TAG_RECENT_SECONDS, WORD_MAX_LENGTH, shard_of, word_keys

QUERY_MAX_WORDS = 8
# A query whose newest shard doesn't fill its page reads the older shards this many at
# most a round trip (each still one script in one slot): a rare word at 20,000,000
# statuses (306 shards) takes 14 round trips, not 306.
SHARDS_AT_ONCE = 32
# Tag search ranks the first this many tags of the prefix, in name order.
TAG_CANDIDATES = 200
TAG = re.compile(r"\w{1,100}")


def query_words(query: str) -> list[str]:
    """The words a status must all have to match `query` (the `track` filter's words),
    or ValueError saying what is wrong with it."""
    found = sorted(words(query or ""))
    if not found:
        raise ValueError("Type a word to search for.")
    if len(found) > QUERY_MAX_WORDS:
        raise ValueError(f"Search for at most {QUERY_MAX_WORDS} words at once.")
    if any(len(word) > WORD_MAX_LENGTH for word in found):
        raise ValueError(f"Words are searched up to {WORD_MAX_LENGTH} characters long.")
    return found


def matching_ids(terms: list[str], start: int, count: int) -> list[str]:
    """Up to `count` ids of statuses with every word of `terms`, newest first, after the
    first `start`: the newest shard in one round trip, then the older ones in batches
    twice as big each time (up to SHARDS_AT_ONCE), while the page isn't full."""
    conn = get_redis()
    newest = int(conn.get(keys.STATUS_ID_COUNTER) or 0)
    size = settings.SEARCH_SHARD_STATUSES
    ids: list[str] = []
    seen = 0
    shards = list(range(shard_of(newest), -1, -1))
    batch = 1
    while shards and len(ids) < count:
        asked, shards = shards[:batch], shards[batch:]
        skip, wanted = max(0, start - seen), count - len(ids)
        pipe = PackedPipeline(conn)
        for n, shard in enumerate(asked):
            # The batch's first shard skips what the page passes over; the others can't
            # know how many of those the shards before them hold, so they return them.
            skipped, asked_for = (skip, wanted) if n == 0 else (0, skip + wanted)
            named = [key for term in terms for key in word_keys(shard, term)]
            low, high = shard * size, min(newest, (shard + 1) * size - 1)
            scripts.search_shard(
                pipe,
                word_keys=named,
                skip=skipped,
                count=asked_for,
                first_id=low,
                top_id=high,
                words=terms,
            )
        for n, (total, found) in enumerate(pipe.execute()):
            passed = 0 if n == 0 else max(0, start - seen)
            ids += map(str, found[passed : passed + count - len(ids)])
            seen += total
            if len(ids) >= count:
                break
        batch = min(2 * batch, SHARDS_AT_ONCE)
    return ids


def search_statuses(query: str, page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """Page `page` of the statuses having every word of `query`, newest first, as
    `viewer` may see them; at most SEARCH_MAX_RESULTS matches are paged through."""
    terms = query_words(query)
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    start = (page - 1) * count
    if start >= settings.SEARCH_MAX_RESULTS:
        raise ValueError(f"Search shows the newest {settings.SEARCH_MAX_RESULTS:,} matches.")
    ids = matching_ids(terms, start, min(count + 1, settings.SEARCH_MAX_RESULTS - start))
    return shown_to(viewer, ids, page, count)


def shown_to(viewer: int | None, ids: list[str], page: int, count: int) -> Page:
    """The page of statuses `ids` (one more than `count` tells a later page exists) as
    `viewer` sees them: what they may not see is left out. The one place search results
    pass the visibility rule (feeds.selectors.read_page: deleted statuses, suspended
    users', and what timeline.audience's rule hides: private accounts' to non-followers,
    either side of a block)."""
    pipe = PackedPipeline(get_redis())
    read = queue_statuses(pipe, ids, count, viewer)
    pipe.execute()
    return read_page(read, page)


@dataclass(frozen=True, slots=True)
class TagMatch:
    name: str
    # Public statuses with the tag in the last TAG_RECENT_SECONDS (at most the newest
    # HOME_TIMELINE_SIZE are kept, as in its timeline: the most this can say).
    recent: int


def search_tags(query: str, page: int = 1, count: int = 20) -> tuple[list[TagMatch], bool]:
    """Page `page` of the #tags starting with `query` ("#" optional, any case) that public
    statuses used, the most used lately first, and whether a later page exists: 2 round
    trips."""
    prefix = (query or "").strip().removeprefix("#").lower()
    if not TAG.fullmatch(prefix):
        raise ValueError("Tags are letters, digits and underscores (up to 100).")
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    conn = get_redis()
    low = b"[" + prefix.encode()
    names = conn.zrangebylex(keys.TAG_NAMES, low, low + b"\xff", 0, TAG_CANDIDATES)
    since = time.time() - TAG_RECENT_SECONDS
    pipe = PackedPipeline(conn)
    for name in names:
        pipe.zcount(keys.tag_public_uses_key(name), since, "+inf")
    counts = pipe.execute() if names else []
    found = sorted(
        (TagMatch(name, int(recent)) for name, recent in zip(names, counts, strict=True)),
        key=lambda tag: (-tag.recent, tag.name),
    )
    start = (page - 1) * count
    return found[start : start + count], len(found) > start + count
