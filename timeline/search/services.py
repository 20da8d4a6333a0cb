"""Indexing statuses for search (Redis in Action 7.1): each word of a status goes into
its word's ids in the shard of the status's id (a field of a bucket hash while the word
is rare there, else its own set: timeline.keys), when it is posted, and out again when
it is deleted; a public status's #tags go into the index of tag names and their recent
uses (a private status's are nobody's to find: they go into neither).

The words are socialsite.text.words, the streaming API's `track` rule, so a search
finds what a `track` stream would have passed. A repost carries its original's
message and is not indexed: the original is."""

import itertools
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.conf import settings

from accounts.keys import LOGIN_INDEX, user_key
from accounts.services import queue_name_entries
from socialsite.redis import PackedPipeline, get_redis, scan_batches
from socialsite.text import words
from timeline.statuses.records import Status

from .. import keys
from ..audience.selectors import is_private_value
from ..discovery.suggestions import queue_popular
from ..statuses import layout, text, visibility
from . import scripts

# Keys a step of reindex's walk (a SCAN's count, a pipeline's reads).
CHUNK = 1000
# Longer words are not indexed (nobody searches for them) and a query can't use them.
WORD_MAX_LENGTH = 60
# A tag's public uses are kept this long, for tag search's count ("in the last day").
TAG_RECENT_SECONDS = 24 * 3600


def shard_of(status_id: int) -> int:
    """The index shard of a status id: SEARCH_SHARD_STATUSES consecutive ids a shard."""
    return int(status_id) // settings.SEARCH_SHARD_STATUSES


def word_keys(shard: int, word: str) -> list[str]:
    """The keys that may hold `word`'s statuses in `shard`: its own set, its bucket."""
    return [keys.search_ids_key(shard, word), keys.search_bucket_key(shard, word)]


def indexed_words(message: str) -> list[str]:
    """The words of `message` the index holds, in order (for repeatable writes)."""
    return sorted(word for word in words(message) if len(word) <= WORD_MAX_LENGTH)


def index(pipe, status: Mapping[str, Any]) -> None:
    """Queues on `pipe` the indexing of a new status's words (one script in its shard's
    slot, idempotent) and, for a public one, its tags; nothing for a repost."""
    if status.get("repost_of") or not searchable(status):
        return
    queue_words(pipe, status, "add")
    if not is_private_value(status.get(keys.PRIVATE_FIELD)):
        queue_public_tags(pipe, status)


def searchable(status: Mapping[str, Any]) -> bool:
    """Whether a status's words are indexed: not an unlisted or direct one's (never in
    search, whoever searches); a followers-only one's are, as a private account's are,
    for its followers to find."""
    return not (visibility.is_unlisted(status) or visibility.is_direct(status))


def queue_public_tags(pipe, status: Mapping[str, Any]) -> list[str]:
    """Queues on `pipe` the #tags of a public status (idempotent): their names for tag
    search and, if it is recent, its use in each tag's count; returns the tags."""
    tags = text.tags(status["message"])
    if not tags:
        return tags
    pipe.zadd(keys.TAG_NAMES, dict.fromkeys(tags, 0))
    since = time.time() - TAG_RECENT_SECONDS
    posted = status.get("posted")
    if posted is None or float(posted) < since:
        return tags
    for tag in tags:
        uses = keys.tag_public_uses_key(tag)
        pipe.zadd(uses, {status["id"]: posted})
        # Trimmed of what is no longer recent, and as the tag's timeline is.
        pipe.zremrangebyscore(uses, "-inf", f"({since}")
        pipe.zremrangebyrank(uses, 0, -settings.HOME_TIMELINE_SIZE - 1)
    return tags


def forget(pipe, status: Status) -> None:
    """Queues on `pipe` taking a deleted status out of the word index and of its tags'
    recent uses. A tag's name stays: other statuses may use it, and its page says when
    none is left."""
    if not status.get("repost_of"):
        queue_words(pipe, status, "remove")
        for tag in text.tags(status["message"]):
            pipe.zrem(keys.tag_public_uses_key(tag), status["id"])


def queue_words(pipe, status: Mapping[str, Any], change: str) -> None:
    """Queues on `pipe` the script that adds ("add") or removes ("remove") a status's
    words in its shard (lua/index_words.lua)."""
    found = indexed_words(status["message"])
    if not found:
        return
    shard = shard_of(status["id"])
    offset = int(status["id"]) - shard * settings.SEARCH_SHARD_STATUSES
    named = [key for word in found for key in word_keys(shard, word)]
    scripts.index_words(
        pipe,
        word_keys=named,
        change=change,
        offset=offset,
        bucket_most=settings.SEARCH_BUCKET_IDS,
        words=found,
    )


# The word index's older shapes (timeline.keys): their keys' pattern and type.
OLD_SHAPES = ((keys.OLD_SEARCH_WORD_PATTERN, "ZSET"), (keys.OLD_SEARCH_SET_PATTERN, "SET"))


def old_index_exists() -> bool:
    """Whether any key of the word index's older shapes is left (one SCAN at most)."""
    conn = get_redis()
    return any(
        next(iter(conn.scan_iter(match=pattern, count=CHUNK, _type=kind)), None)
        for pattern, kind in OLD_SHAPES
    )


def reindex(progress: Callable[[str], None] = lambda _: None) -> dict[str, int]:
    """Indexes every status and profile there is for search and suggestions (the word
    index, tag names, people search, the most followed): for data written before they
    existed, or in the word index's older shape (whose keys it deletes once the statuses
    are indexed: a search meanwhile finds only the statuses indexed so far). Idempotent;
    walks Redis with SCAN and HSCAN, CHUNK at a time."""
    conn = get_redis()
    done = {"statuses": 0, "users": 0, "old_word_keys": 0}
    named: set[str] = set()
    for statuses in stored_statuses(conn):
        pipe = PackedPipeline(conn)
        for status in statuses:
            index(pipe, status)
            if not status.get("repost_of") and visibility.is_listed(status):
                named.update(text.tags(status["message"]))
        pipe.execute()
        done["statuses"] += len(statuses)
        progress(f"statuses: {done['statuses']} indexed")
    drop_tag_names(conn, named)
    for pattern, kind in OLD_SHAPES:
        for chunk in scan_batches(conn, pattern, kind, CHUNK):
            pipe = PackedPipeline(conn)
            for name in chunk:
                pipe.unlink(name)
            pipe.execute()
            done["old_word_keys"] += len(chunk)
            progress(f"old word index: {done['old_word_keys']} keys deleted")
    logins = (uid for _, uid in conn.hscan_iter(LOGIN_INDEX, count=CHUNK))
    while chunk := list(itertools.islice(logins, CHUNK)):
        read = PackedPipeline(conn)
        read.for_each_key(map(user_key, chunk), ("HMGET", "login", "name", "followers"))
        users = [
            {"id": int(uid), "login": login, "name": name, "followers": int(followers or 0)}
            for uid, (login, name, followers) in zip(chunk, read.execute(), strict=True)
            if login
        ]
        pipe = PackedPipeline(conn)
        queue_name_entries(pipe, users)
        for user in users:
            if user["followers"]:
                queue_popular(pipe, user["id"], user["followers"])
        pipe.execute()
        done["users"] += len(users)
        progress(f"users: {done['users']} indexed")
    return done


def stored_statuses(conn) -> Iterator[list[dict[str, Any]]]:
    """Every stored status, CHUNK at a time, with what indexing reads of it (id, message,
    repost_of, private, posted): a SCAN of the status hashes."""
    fields = (
        "message",
        "repost_of",
        keys.PRIVATE_FIELD,
        layout.POSTED_FIELD,
        visibility.VISIBILITY_FIELD,
    )
    for chunk in scan_batches(conn, keys.STATUS_PATTERN, "HASH", CHUNK):
        read = PackedPipeline(conn)
        read.for_each_key(chunk, ("HMGET", *fields))
        yield [
            {
                "id": int(keys.status_id_in_key(name)),
                "message": message,
                "repost_of": repost_of,
                keys.PRIVATE_FIELD: private,
                "posted": layout.read_posted(posted),
                "visibility": visibility.NAMES.get(code or ""),
            }
            for name, (message, repost_of, private, posted, code) in zip(
                chunk, read.execute(), strict=True
            )
            if message is not None
        ]


def reindex_tags(progress: Callable[[str], None] = lambda _: None) -> int:
    """Indexes the #tags of every public status (names, and the last day's uses) and drops
    the names no public status uses (a store written when private statuses' tags were
    named too); idempotent. Returns how many names it dropped."""
    conn = get_redis()
    named: set[str] = set()
    seen = 0
    for statuses in stored_statuses(conn):
        pipe = PackedPipeline(conn)
        for status in statuses:
            if not status.get("repost_of") and visibility.is_listed(status):
                named.update(queue_public_tags(pipe, status))
        pipe.execute()
        seen += len(statuses)
        progress(f"statuses: {seen} read for their tags")
    return drop_tag_names(conn, named)


def drop_tag_names(conn, named: set[str]) -> int:
    """Drops from the tag names those not in `named` (the tags of every public status a
    walk read) and with no recent public use (a post since the walk began has one), in
    steps of CHUNK; returns how many it dropped."""
    dropped = 0
    names = (name for name, _ in conn.zscan_iter(keys.TAG_NAMES, count=CHUNK))
    while chunk := list(itertools.islice(names, CHUNK)):
        chunk = [name for name in chunk if name not in named]
        pipe = PackedPipeline(conn)
        for name in chunk:
            pipe.exists(keys.tag_public_uses_key(name))
        unused = [name for name, used in zip(chunk, pipe.execute(), strict=True) if not used]
        if unused:
            conn.zrem(keys.TAG_NAMES, *unused)
            dropped += len(unused)
    return dropped
