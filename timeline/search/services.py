"""Indexing statuses for search (Redis in Action 7.1): each word of a status goes into
its word's sorted set in the shard of the status's id, when it is posted, and out again
when it is deleted; its #tags go into the index of tag names.

The words are socialsite.text.words, the streaming API's `track` rule, so a search
finds what a `track` stream would have passed. A repost carries its original's
message and is not indexed: the original is."""

from django.conf import settings

from socialsite.text import words

from .. import keys, text

# Longer words are not indexed (nobody searches for them) and a query can't use them.
WORD_MAX_LENGTH = 60


def shard_of(status_id: int) -> int:
    """The index shard of a status id: SEARCH_SHARD_STATUSES consecutive ids a shard."""
    return int(status_id) // settings.SEARCH_SHARD_STATUSES


def indexed_words(message: str) -> list[str]:
    """The words of `message` the index holds, in order (for repeatable writes)."""
    return sorted(word for word in words(message) if len(word) <= WORD_MAX_LENGTH)


def index(pipe, status: dict) -> None:
    """Queues on `pipe` the indexing of a new status's words and tags (nothing for a
    repost); one ZADD a word, idempotent."""
    if status.get("repost_of"):
        return
    shard = shard_of(status["id"])
    for word in indexed_words(status["message"]):
        pipe.zadd(keys.search_word_key(shard, word), {status["id"]: status["id"]})
    tags = text.tags(status["message"])
    if tags:
        pipe.zadd(keys.TAG_NAMES, dict.fromkeys(tags, 0))


def forget(pipe, status: dict) -> None:
    """Queues on `pipe` taking a deleted status out of the word index. A tag's name stays:
    other statuses may use it, and its page says when none is left."""
    if status.get("repost_of"):
        return
    shard = shard_of(status["id"])
    for word in indexed_words(status["message"]):
        pipe.zrem(keys.search_word_key(shard, word), status["id"])
