"""Reading the follow graph: who follows whom, followers in common (Retwis), and a
profile page, which shows a person's statuses with how the viewer relates to them."""

import time
from dataclasses import dataclass

from accounts import logins
from accounts.keys import user_key
from accounts.records import UserProfile
from accounts.services import decode_user, get_users, uid_for_login
from socialsite.redis import Batch, PackedPipeline, get_redis

from .. import keys
from ..audience.selectors import Relation, may_see_account, queue_relation
from ..feeds.selectors import Page, kept_statuses, page_ids, queue_statuses, read_page
from ..follow_sets import followers as follower_sets
from ..follow_sets import following as following_sets
from ..follow_sets import options as follow_options
from ..keeps import selectors as keeps
from ..lists.selectors import queue_lists
from ..ranking import affinity

# Followers in common are looked for among this many of your newest follows.
COMMON_SCAN = 5000


def is_following(uid: int, other_uid: int) -> bool:
    return following_sets.queue_score(get_redis(), uid, other_uid) is not None


def following_among(uid: int | None, others: list[int]) -> set[int]:
    """Which of `others` `uid` follows (none for no one): 1 round trip, none if empty."""
    if not uid:
        return set()
    found = following_sets.follows(uid, others)
    return {other for other, yes in zip(others, found, strict=True) if yes}


def followers_page(
    uid: int, page: int = 1, count: int = 50, viewer: int | None = None
) -> tuple[list[UserProfile], bool]:
    """Profiles of `uid`'s followers, newest follow first, and whether more follow, as
    `viewer` may see them (none of a private account's to others, see may_see_account)."""
    if not may_see_account(uid, viewer):
        return [], False
    uids = follower_sets.page_ids(get_redis(), uid, page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count


def following_page(
    uid: int, page: int = 1, count: int = 50, viewer: int | None = None
) -> tuple[list[UserProfile], bool]:
    """Profiles of the users `uid` follows, newest first, and whether more follow, as
    `viewer` may see them (none of a private account's to others, see may_see_account)."""
    if not may_see_account(uid, viewer):
        return [], False
    uids = following_sets.page_ids(get_redis(), uid, page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count


def in_common(following: list[str], follows: list[bool], limit: int) -> list[int]:
    """The first `limit` of `following` who follow the other user (`follows`, each's)."""
    common = [int(u) for u, yes in zip(following, follows, strict=True) if yes]
    return common[:limit]


def followers_in_common(uid: int, other_uid: int, limit: int = 10) -> list[UserProfile]:
    """People `uid` follows who also follow `other_uid` (Retwis's "followers in common").

    `uid`'s follows are asked of `other_uid`'s followers in their slot, or if those are
    in many pieces, each of its following set (follow_sets.followers.followers_among)."""
    conn = get_redis()
    batch = Batch(conn)
    newest = following_sets.queue_newest_of_base(batch, uid, COMMON_SCAN)
    followers = batch.hget(user_key(other_uid), "followers")
    batch.execute()
    following = following_sets.newest(conn, newest)
    follows = follower_sets.followers_among(conn, following, other_uid, followers.value)
    return get_users(in_common(following, follows, limit))


@dataclass(frozen=True, slots=True)
class ProfilePage:
    user: UserProfile
    page: Page
    is_following: bool
    followers_in_common: list[UserProfile]
    # Blocks, mute and follow request between the viewer and them (timeline.safety).
    relation: Relation = Relation()
    # They follow the viewer: the "Remove follower" button.
    follows_viewer: bool = False
    # The viewer's lists, each with `has_member` (them on it): the "add to list" control.
    viewer_lists: tuple = ()
    # Keep: their pinned statuses, atop the first page (timeline.keeps).
    pinned: tuple = ()
    # The viewer's follow options on them (follow_sets.options): reposts shown, notified.
    showing_reposts: bool = True
    notifying: bool = False


def profile_page(
    login: str,
    viewer_uid: int | None = None,
    page: int = 1,
    count: int = 30,
    common: int = 10,
    *,
    looked_up: bool = False,
    media: bool = False,
) -> ProfilePage | None:
    """`login`'s profile and a page of their statuses as `viewer_uid` (or no one) sees them:
    whether the viewer follows them, and followers in common. None for an unknown login.

    3 round trips: the uid (none once this process knows it, see accounts.logins); their
    profile, the status ids and the viewer's follows and lists; the statuses not kept in
    the process (statuses.cache), the viewer's likes and reposts of them, the
    common-follower test and the viewer's lists (with whether they are on each). One more
    for the profiles of followers in common, if any, for reposts' originals, and for the
    viewer's newest follows if they are many (in buckets: follow_sets.following). `looked_up`:
    the uid is looked up, not remembered. `media`: the media tab's page (their statuses
    with media, no pins), in the same round trips and one more for the attachments."""
    uid = uid_for_login(login) if looked_up else logins.remembered_uid(login)
    if uid is None:
        return None
    viewer = None if viewer_uid in (None, uid) else int(viewer_uid)
    conn = get_redis()
    batch = Batch(conn)
    fields = batch.hgetall(user_key(uid))
    # With their scores: the statuses kept in the process are served by them.
    # Media (mediaweb): the media tab reads the index of their statuses with media.
    index = keys.media_timeline_key(uid) if media else keys.profile_timeline_key(uid)
    entries = page_ids(batch, index, page, count, withscores=True)
    pins = keeps.queue_pins(batch, uid) if page == 1 and not media else None
    if viewer:
        following_them = following_sets.queue_score(batch, viewer, uid)
        following_viewer = following_sets.queue_score(batch, uid, viewer)
        newest = following_sets.queue_newest_of_base(batch, viewer, COMMON_SCAN)
        own_lists = batch.zrevrange(keys.user_lists_key(viewer), 0, -1)
        relation = queue_relation(batch, viewer, uid)
        hidden, notified = follow_options.queue_options_of(batch, viewer, [uid])
        if page == 1:
            affinity.queue_engaged(batch, viewer, uid, affinity.VISIT, time.time())
    batch.execute()
    user = decode_user(fields.value)
    if not looked_up and not logins.is_profile_of(user, login):
        # The uid remembered is no longer the login's: looked up again.
        logins.forget(login)
        return profile_page(login, viewer_uid, page, count, common, looked_up=True, media=media)
    if user is None:
        return None
    follows_them = viewer is not None and following_them.value is not None
    following = following_sets.newest(conn, newest) if viewer else []
    if user["private"] and uid != viewer_uid and not follows_them:
        # A private account's page shows others nothing, whether or not the job that
        # marks its statuses after going private has reached them yet.
        ids, kept, generation = kept_statuses([], count)
        pins = None
    else:
        ids, kept, generation = kept_statuses(entries.value, count)
    pipe = PackedPipeline(conn)
    statuses = queue_statuses(pipe, ids, count, viewer_uid, kept=kept, generation=generation)
    pinned = keeps.queue_pinned_statuses(pipe, pins, viewer_uid, statuses)
    lists = queue_lists(pipe, own_lists.value if viewer else [], uid)
    asked = follower_sets.queue_who_follow(pipe, following, uid, user["followers"])
    pipe.execute()
    follows = follower_sets.who_follow(conn, asked)
    common_uids = in_common(following, follows, common)
    followed = {uid} if follows_them else set()
    shown = read_page(statuses, page, follows=followed)
    if media:
        # An edit may have taken a status's media off: the tab shows those with some.
        with_media = [s for s in shown.statuses if s.get("attachments")]
        shown = Page(statuses=with_media, number=shown.number, has_older=shown.has_older)
    return ProfilePage(
        user=user,
        page=shown,
        is_following=follows_them,
        followers_in_common=get_users(common_uids),
        relation=relation.relation if viewer else Relation(),
        follows_viewer=viewer is not None and following_viewer.value is not None,
        viewer_lists=tuple(lists.lists),
        pinned=tuple(keeps.pinned_statuses(pinned, followed)),
        showing_reposts=not (viewer and hidden.value[0]),
        notifying=bool(viewer and notified.value[0]),
    )


def relationships(uid: int, others: list[int]) -> list[tuple[bool, bool]]:
    """For each of `others`: whether `uid` follows them, and whether they follow `uid`
    (asked of their following sets, see follow_sets.following). 1 round trip."""
    if not others:
        return []
    pipe = PackedPipeline(get_redis())
    following = following_sets.queue_scores(pipe, uid, others)
    asked = following_sets.queue_follows_of(pipe, others, uid)
    pipe.execute()
    followers = following_sets.scores_of(asked)
    return [(a is not None, b is not None) for a, b in zip(following.value, followers, strict=True)]


def followed_at(uid: int, other_uid: int) -> float | None:
    """When `uid` followed `other_uid` (Unix seconds), or None if they don't."""
    score = following_sets.queue_score(get_redis(), uid, other_uid)
    return None if score is None else float(score)
