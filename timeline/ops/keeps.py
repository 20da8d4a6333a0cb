"""The repair of what users keep (timeline.keeps), for `manage.py repair`
(ops.maintenance): bookmark marks that differ from the bookmarks, followed tags recorded
on one side only, and pins of statuses gone, not their owner's or past PINS_MAX.
Bookmarks against their statuses' bookmarkers are a pairing of ops.pairings
(BOOKMARKS)."""

from collections.abc import Callable, Iterator

from django.conf import settings

from accounts import keys as account_keys
from socialsite.redis import Batch, Client

from .. import keys
from ..reactions import scripts as mark_scripts

CHUNK = 1000

# (check, key, problem), as ops.report.Finding takes them.
Found = tuple[str, str, str]


def check_keeps(conn: Client, *, fix: bool, progress: Callable[[str], None]) -> Iterator[Found]:
    """Every keep finding, fixed as it is found if `fix`."""
    yield from _bookmark_marks(conn, fix)
    progress("keeps: bookmark marks checked")
    yield from _followed_tags(conn, fix)
    progress("keeps: followed tags checked")
    yield from _pins(conn, fix)
    progress("keeps: pins checked")


def _bookmark_marks(conn: Client, fix: bool) -> Iterator[Found]:
    """Bookmark marks (bookmarked:{uid}) that differ from the bookmarks, the truth (the
    likes' marks' script: any page of status ids and its marks)."""
    owners = {
        account_keys.hash_tag_id(key)
        for pattern in (keys.BOOKMARKS_PATTERN, keys.bookmarked_key("*"))
        for key in conn.scan_iter(match=pattern, count=CHUNK)
    }
    for uid in sorted(owners):
        missing, extra = mark_scripts.sync_liked(
            conn, likes_key=keys.bookmarks_key(uid), liked_key=keys.bookmarked_key(uid), fix=fix
        )
        if missing or extra:
            problem = f"{missing} bookmarks unmarked, {extra} marks of no bookmark"
            yield "keeps", keys.bookmarked_key(uid), problem


def _followed_tags(conn: Client, fix: bool) -> Iterator[Found]:
    """A user's followed tags are the truth: a tag's follower set missing one of them
    gets it back, and one listing someone who doesn't follow the tag loses them."""
    for key in conn.scan_iter(match=keys.FOLLOWED_TAGS_PATTERN, count=CHUNK, _type="ZSET"):
        uid = account_keys.hash_tag_id(key)
        followed = conn.zrange(key, 0, -1, withscores=True)
        reads = Batch(conn)
        backs = [reads.zscore(keys.tag_followers_key(tag), uid) for tag, _ in followed]
        reads.execute()
        for (tag, when), back in zip(followed, backs, strict=True):
            if back.value is None:
                if fix:
                    conn.zadd(keys.tag_followers_key(tag), {uid: int(when)}, nx=True)
                yield "keeps", keys.tag_followers_key(tag), f"misses follower {uid}"
    for key in conn.scan_iter(match=keys.TAG_FOLLOWERS_PATTERN, count=CHUNK, _type="ZSET"):
        tag = key.split("{", 1)[1].rsplit("}", 1)[0]
        uids = conn.zrange(key, 0, -1)
        reads = Batch(conn)
        backs = [reads.zscore(keys.followed_tags_key(uid), tag) for uid in uids]
        reads.execute()
        for uid, back in zip(uids, backs, strict=True):
            # Read again: a follow between its two steps is whole by now.
            if back.value is None and conn.zscore(keys.followed_tags_key(uid), tag) is None:
                if fix:
                    conn.zrem(key, uid)
                yield "keeps", key, f"lists follower {uid}, who doesn't follow #{tag}"


def _pins(conn: Client, fix: bool) -> Iterator[Found]:
    """Pins of statuses that are gone or someone else's, and pins past PINS_MAX (the
    oldest pinned go)."""
    for key in conn.scan_iter(match=keys.PINS_PATTERN, count=CHUNK, _type="ZSET"):
        uid = account_keys.hash_tag_id(key)
        pinned = conn.zrevrange(key, 0, -1)
        reads = Batch(conn)
        authors = [reads.hget(keys.status_key(status_id), "uid") for status_id in pinned]
        reads.execute()
        wrong = [
            status_id
            for status_id, author in zip(pinned, authors, strict=True)
            if author.value is None or int(author.value) != uid
        ]
        kept = [status_id for status_id in pinned if status_id not in wrong]
        wrong += kept[settings.PINS_MAX :]
        if wrong:
            if fix:
                conn.zrem(key, *wrong)
            yield "keeps", key, f"{len(wrong)} pins of statuses gone, not theirs or too many"
