"""The people directory (/directory/): every account, newest first, or the most
followed first, a page at a time, as a viewer may see them.

Newest is by uid, which counts up as accounts are made (accounts.services.create_users):
a page is a span of uids, so it needs no index of its own; an account closed since
leaves its place on its page empty. Most followed is the ranking who to follow keeps
(discovery.suggestions.queue_popular). A page is 2 round trips: its uids, then their
profiles with the viewer's blocks and follows."""

from dataclasses import dataclass, field

from accounts.keys import USER_ID_COUNTER, user_key
from accounts.records import UserProfile
from accounts.services import decode_user
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..audience import selectors as audience
from ..follow_sets import following

NEWEST, MOST_FOLLOWED = "newest", "followed"
ORDERS = (NEWEST, MOST_FOLLOWED)
PEOPLE_PER_PAGE = 20


@dataclass(frozen=True)
class DirectoryPage:
    people: list[UserProfile]
    number: int
    has_older: bool
    # Which of `people` the viewer follows.
    followed: set[int] = field(default_factory=set)


def directory_page(
    order: str, number: int, viewer: int | None, count: int | None = None
) -> DirectoryPage:
    """Page `number` (from 1) of the directory in `order` (NEWEST or MOST_FOLLOWED), as
    `viewer` (None: a visitor) sees it: no suspended account, nobody either of you
    blocks; PEOPLE_PER_PAGE unless `count`. ValueError for another order."""
    if order not in ORDERS:
        raise ValueError(f"Order the directory by {' or '.join(ORDERS)}.")
    count = count or PEOPLE_PER_PAGE
    conn = get_redis()
    start = (number - 1) * count
    if order == NEWEST:
        top = int(conn.get(USER_ID_COUNTER) or 0) - start
        uids = list(range(top, max(top - count, 0), -1))
        has_older = top - count >= 1
    else:
        # One more than asked tells whether an older page exists.
        found = conn.zrevrange(keys.POPULAR_USERS, start, start + count)
        uids, has_older = [int(uid) for uid in found[:count]], len(found) > count
    if not uids:
        return DirectoryPage([], number, has_older)
    pipe = PackedPipeline(conn)
    profiles = [pipe.hgetall(user_key(uid)) for uid in uids]
    seen_by = audience.queue_audience(pipe, viewer)
    follows = following.queue_scores(pipe, viewer, uids) if viewer else None
    pipe.execute()
    blocked = seen_by.audience.blocked
    people = [
        person
        for person in (decode_user(profile.value) for profile in profiles)
        if person and not person["suspended"] and person["id"] not in blocked
    ]
    followed = set()
    if follows is not None:
        followed = {uid for uid, since in zip(uids, follows.value, strict=True) if since}
    return DirectoryPage(people, number, has_older, followed)
