"""Reading what a user keeps: their bookmarks page, their pins (read with their profile
page: graph.selectors) and the tags they follow."""

from dataclasses import dataclass

from socialsite.redis import PackedPipeline, Pipe, Reply, get_redis

from .. import keys
from ..conversations.selectors import check_tag
from ..feeds.pages import Page, StatusesRead, queue_statuses, read_page, statuses_page
from ..statuses.records import Status


def is_pinnable(status: Status) -> bool:
    """Whether `status` may be pinned and shown pinned: one anyone may see on its
    author's profile, public or unlisted (followers-only and direct statuses, and a
    private account's, are marked private: statuses.visibility)."""
    return status.get(keys.PRIVATE_FIELD) != "1"


def bookmarks_page(uid: int, page: int = 1, count: int = 30) -> Page:
    """The statuses `uid` bookmarked, the latest bookmarked first (for `uid`'s eyes only):
    2 round trips, 3 if it shows reposts' originals."""
    return statuses_page(keys.bookmarks_key(uid), page, count, viewer=uid)


def bookmarked_ids(uid: int) -> list[int]:
    """The ids of every status `uid` bookmarked, the latest first (a deleted one's too
    until its deletion's job takes it off)."""
    return [int(i) for i in get_redis().zrevrange(keys.bookmarks_key(uid), 0, -1)]


def queue_pins(pipe: Pipe, uid: int) -> Reply:
    """Queues the read of `uid`'s pinned status ids, the latest pinned first."""
    return pipe.zrevrange(keys.pins_key(uid), 0, -1)


def queue_pinned_statuses(
    pipe: PackedPipeline, pins: Reply | None, viewer: int | None, shown: StatusesRead
) -> StatusesRead | None:
    """Queues the read of the pinned statuses `pins` (queue_pins' handle, run) for
    `viewer`, beside a profile page's own statuses (`shown`: its suspended set and the
    viewer's audience are read once); None if none is pinned."""
    ids = [str(i) for i in pins.value] if pins is not None else []
    if not ids:
        return None
    return queue_statuses(
        pipe, ids, len(ids), viewer, suspended=shown.suspended, audience=shown.audience
    )


def pinned_statuses(read: StatusesRead | None, follows: set[int]) -> list[Status]:
    """The pinned statuses queue_pinned_statuses read, as the viewer may see them: those
    gone, hidden or no longer public left out."""
    if read is None:
        return []
    shown = read_page(read, 1, follows=follows).statuses
    return [status for status in shown if status is not None and is_pinnable(status)]


def pinned_statuses_of(uid: int, viewer: int | None) -> list[Status]:
    """`uid`'s pinned statuses as `viewer` may see them, the latest pinned first: 2
    round trips (none pinned: 1)."""
    conn = get_redis()
    pins = conn.zrevrange(keys.pins_key(uid), 0, -1)
    if not pins:
        return []
    pipe = PackedPipeline(conn)
    read = queue_statuses(pipe, [str(i) for i in pins], len(pins), viewer)
    pipe.execute()
    return pinned_statuses(read, set())


def pinned_ids(uid: int) -> list[str]:
    """`uid`'s pinned status ids, the latest pinned first: 1 round trip."""
    return [str(i) for i in get_redis().zrevrange(keys.pins_key(uid), 0, -1)]


@dataclass(frozen=True, slots=True)
class FollowedTag:
    name: str
    followed: float  # when, Unix seconds

    @property
    def cursor(self) -> int:
        """When it was followed in whole microseconds: the API's page cursor."""
        return round(self.followed * 1e6)


def followed_tags(uid: int, count: int = 1000, *, before: int | None = None) -> list[FollowedTag]:
    """Up to `count` tags `uid` follows, the latest followed first (those whose `cursor`
    is below `before`, if given): 1 round trip. A cursor turned back into seconds can land
    a hair above its own score, so the read reaches one microsecond past it and drops what
    isn't below."""
    top = "+inf" if before is None else (before + 1) / 1e6
    found = get_redis().zrevrangebyscore(
        keys.followed_tags_key(uid), top, "-inf", start=0, num=count + 1, withscores=True
    )
    tags = [FollowedTag(str(name), float(score)) for name, score in found]
    return [tag for tag in tags if before is None or tag.cursor < before][:count]


def queue_followed_tag_names(pipe: Pipe, uid: int) -> Reply:
    """Queues the read of the names of every tag `uid` follows (a live home's)."""
    return pipe.zrange(keys.followed_tags_key(uid), 0, -1)


def follows_tag(uid: int | None, tag: str) -> bool:
    """Whether `uid` (None: no one) follows #tag (any case; ValueError if it isn't one)."""
    name = check_tag(tag)
    if not uid:
        return False
    return get_redis().zscore(keys.followed_tags_key(uid), name) is not None


def tag_follower_uids(tag: str) -> list[int]:
    """The uids of everyone who follows #tag, the latest first."""
    return [int(u) for u in get_redis().zrevrange(keys.tag_followers_key(check_tag(tag)), 0, -1)]
