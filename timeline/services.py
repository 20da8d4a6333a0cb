"""Statuses, timelines and the follow graph (Redis in Action 8.1-8.4, cluster-ready).

Round trips: a post is 3 (id, store, fan-out), a timeline page 2 (ids, statuses),
a follow 2 (one atomic script in each user's slot), an unfollow 3 (the same, then
the job that refills home, queued only if something was removed)."""

import time
from dataclasses import dataclass

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from accounts.services import AccountSuspended, decode_user, get_users, uid_for_login
from socialsite.redis import PackedPipeline, get_redis
from streaming import events
from streaming.keys import STATUS_CHANNEL

from . import conversations, fanout, jobs, keys, reactions, refill, scripts

TIMELINES = {"home": keys.home_timeline_key, "profile": keys.profile_timeline_key}
CORE_FIELDS = frozenset({"id", "uid", "login", "message", "posted"})
# Counts kept by conversations and reactions: absent means 0.
COUNT_FIELDS = ("replies", "reposts", "likes")
REFERENCE_FIELDS = ("in_reply_to", "in_reply_to_uid", "repost_of", "repost_of_uid")
# Set only by the services that vouch for them, never as a post's extra data.
RESERVED_FIELDS = (
    CORE_FIELDS
    | set(COUNT_FIELDS)
    | set(REFERENCE_FIELDS)
    | {"in_reply_to_login", "ancestors", "mentions", "mention_ids"}
    | {"repost_of_login", "repost_of_posted"}
)


def check_message(message: str) -> str:
    """The message to store, or ValueError saying what is wrong with it."""
    if not isinstance(message, str) or not message.strip():
        raise ValueError("A status can't be empty.")
    if len(message) > settings.STATUS_MAX_LENGTH:
        raise ValueError(f"A status is at most {settings.STATUS_MAX_LENGTH} characters.")
    return message


def decode_status(fields: dict) -> dict | None:
    if not fields:
        return None
    status = dict(fields)
    status["id"] = int(status["id"])
    status["uid"] = int(status["uid"])
    status["posted"] = float(status["posted"])
    for field in COUNT_FIELDS:
        status[field] = int(status.get(field, 0))
    for field in REFERENCE_FIELDS:
        if field in status:
            status[field] = int(status[field])
    return status


def new_status(conn, uid: int, message: str, data: dict) -> dict | None:
    """Allocates an id and builds the status hash (1 round trip); None for an unknown user,
    AccountSuspended for a suspended one."""
    check_message(message)
    if CORE_FIELDS & data.keys():
        raise ValueError(f"Extra data can't replace {sorted(CORE_FIELDS & data.keys())}")
    pipe = conn.pipeline(transaction=False)
    pipe.hmget(user_key(uid), "login", "suspended")
    pipe.incr(keys.STATUS_ID_COUNTER)
    (login, suspended), status_id = pipe.execute()
    if not login:
        return None
    if suspended == "1":
        raise AccountSuspended("This account is suspended.")
    extra = {name: str(value) for name, value in data.items() if value is not None}
    return {
        **extra,
        "id": status_id,
        "uid": int(uid),
        "login": login,
        "message": message,
        "posted": time.time(),
    }


def _store(pipe, status: dict, *, home_size: int, followers: int) -> None:
    """Queues the status hash and its author's bookkeeping (see store_status.lua)."""
    uid = status["uid"]
    pipe.hset(keys.status_key(status["id"]), mapping=status)
    scripts.run(
        pipe,
        "store_status",
        [
            user_key(uid),
            keys.profile_timeline_key(uid),
            keys.home_timeline_key(uid),
            keys.followers_key(uid),
        ],
        [status["id"], status["posted"], home_size, followers],
    )


def create_status(uid: int, message: str, **data) -> int | None:
    """Stores a status on its author's profile (no fan-out); None if the user doesn't exist."""
    conn = get_redis()
    status = new_status(conn, uid, message, data)
    if status is None:
        return None
    pipe = conn.pipeline(transaction=False)
    _store(pipe, status, home_size=0, followers=0)
    pipe.execute()
    return status["id"]


def post_status(uid: int, message: str, **data) -> int | None:
    """Stores a status, delivers it to home and list timelines and publishes it; None for an
    unknown user. `in_reply_to=<status id>` makes it a reply (ValueError if that is gone).

    The first POSTS_PER_PASS followers get it before this returns, the rest by a job."""
    conn = get_redis()
    reserved = RESERVED_FIELDS & (data.keys() - {"in_reply_to"})
    if reserved:
        raise ValueError(f"Extra data can't set {sorted(reserved)}")
    data = conversations.reply_data(data)
    status = new_status(conn, uid, message, data)
    if status is None:
        return None
    return publish_status(conn, status)


def publish_status(conn, status: dict) -> int:
    """Stores a status built by new_status, delivers it, indexes it and publishes it:
    2 round trips (3 for a reply). For services that set its reserved fields themselves."""
    uid = status["uid"]
    home_size = settings.HOME_TIMELINE_SIZE
    pipe = conn.pipeline(transaction=False)
    lookups = conversations.queue_lookups(pipe, status)
    pipe.zrange(keys.listed_in_key(uid), 0, settings.POSTS_PER_PASS - 1, withscores=True)
    _store(pipe, status, home_size=home_size, followers=settings.POSTS_PER_PASS)
    results = pipe.execute()
    found, lists, flat = results[:lookups], results[lookups], results[-1]
    batch = list(zip(flat[::2], map(float, flat[1::2]), strict=True))
    followers = fanout.reply_audience(conn, status, [f for f, _ in batch])

    pipe = PackedPipeline(conn)
    repost_of = status.get("repost_of")
    fanout.deliver(pipe, status["id"], status["posted"], followers, home_size, repost_of=repost_of)
    fanout.deliver_to_lists(
        pipe, status["id"], status["posted"], [i for i, _ in lists], home_size, repost_of=repost_of
    )
    conversations.index(pipe, status, found)
    if not repost_of:
        pipe.zadd(keys.GLOBAL_TIMELINE, {status["id"]: status["posted"]})
        pipe.zremrangebyrank(keys.GLOBAL_TIMELINE, 0, -settings.GLOBAL_TIMELINE_SIZE - 1)
    for audience, done in (("followers", batch), ("lists", lists)):
        rest = fanout.rest_of_fan_out(fanout.fan_out_job(status, audience=audience), done)
        if rest:
            jobs.enqueue(pipe, rest)
    events.publish(pipe, events.status_posted(status))
    pipe.execute()
    return status["id"]


def get_status(status_id: int) -> dict | None:
    return decode_status(get_redis().hgetall(keys.status_key(status_id)))


def delete_status(uid: int, status_id: int) -> bool | None:
    """Deletes a status if `uid` wrote it: True; False if someone else did (nothing changes);
    None if there is no such status."""
    return _delete(status_id, str(uid))


def remove_status(status_id: int) -> bool | None:
    """Deletes any status, as a moderator: True, or None if there is no such status."""
    return _delete(status_id, "")


def _delete(status_id: int, uid: str) -> bool | None:
    conn = get_redis()
    taken = scripts.run(conn, "take_status", [keys.status_key(status_id)], [uid])
    if taken == 0:
        return None
    if taken == -1:
        return False
    status = decode_status(dict(zip(taken[::2], taken[1::2], strict=True)))
    author = status["uid"]
    pipe = conn.pipeline(transaction=False)
    scripts.run(
        pipe,
        "unrecord_status",
        [user_key(author), keys.profile_timeline_key(author), keys.home_timeline_key(author)],
        [status_id],
    )
    pipe.zrem(keys.GLOBAL_TIMELINE, status_id)
    conversations.forget(pipe, status)
    reactions.forget(pipe, status)
    # Reads skip the missing hash at once; the jobs clean the ids out of homes and lists.
    for audience in fanout.AUDIENCES:
        jobs.enqueue(pipe, fanout.fan_out_job(status, retract=True, audience=audience))
    events.publish(pipe, events.status_deleted(status))
    pipe.execute()
    return True


# Nine digits keep (page - 1) * count far inside the 64-bit offsets Redis takes.
LAST_PAGE = 999_999_999


@dataclass(frozen=True)
class Page:
    statuses: list[dict]
    number: int
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def _page_ids(client, key: str, page: int, count: int):
    """ZREVRANGE for page `page` (from 1) of the sorted set at `key`, on a connection or
    a pipeline. One id more than asked tells whether an older page exists."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    if page > LAST_PAGE:
        raise ValueError(f"Pages go up to {LAST_PAGE:,}.")
    start = (page - 1) * count
    return client.zrevrange(key, start, start + count)


def hidden_uids(suspended) -> set[int]:
    """The uids whose statuses read as deleted to everyone but moderators, from a read
    of SUSPENDED_USERS (made in the same round trip as the statuses)."""
    return {int(uid) for uid in suspended}


def is_hidden(status: dict, hidden: set[int]) -> bool:
    """Whether `status` reads as deleted: its author, or its original's, is in `hidden`."""
    return status["uid"] in hidden or status.get("repost_of_uid") in hidden


def _queue_statuses(pipe: PackedPipeline, ids: list[str], count: int, viewer: int | None) -> int:
    """Queues the (small) suspended-user set, the status hashes and whether `viewer`
    (if any) liked or reposted them, which `_page` reads; returns how many replies they
    add."""
    shown = ids[:count]
    pipe.smembers(SUSPENDED_USERS)
    pipe.for_each_key(map(keys.status_key, shown), ("HGETALL",))
    return 1 + len(shown) + reactions.queue_marks(pipe, viewer, shown)


def _page(
    ids: list[str],
    replies: list,
    page: int,
    count: int,
    *,
    viewer: int | None,
    include_suspended: bool = False,
) -> Page:
    """The Page from `_queue_statuses`' replies (1 more round trip if it shows reposts).
    Statuses of suspended users are left out unless `include_suspended` (moderators)."""
    shown = len(ids[:count])
    suspended, hashes, marks = replies[0], replies[1 : 1 + shown], replies[1 + shown :]
    hidden = set() if include_suspended else hidden_uids(suspended)
    statuses = [decode_status(fields) for fields in hashes]
    # A repost is marked here too, unused: it shows its original, marked when read.
    reactions.apply_marks(statuses, marks)
    statuses = [s for s in statuses if s and not is_hidden(s, hidden)]
    statuses = reactions.with_originals(statuses, viewer)
    return Page(statuses=statuses, number=page, has_older=len(ids) > count)


def statuses_page(
    key: str, page: int, count: int, *, viewer: int | None = None, include_suspended: bool = False
) -> Page:
    """Page `page` (from 1) of the timeline at `key`, newest first, each status marked
    `liked` and `reposted` for `viewer` (if any): 2 round trips, 3 if it shows reposts."""
    conn = get_redis()
    ids = _page_ids(conn, key, page, count)
    pipe = PackedPipeline(conn)
    _queue_statuses(pipe, ids, count, viewer)
    replies = pipe.execute()
    return _page(ids, replies, page, count, viewer=viewer, include_suspended=include_suspended)


def shown_status(
    status_id: int, *, viewer: int | None = None, include_suspended: bool = False
) -> dict | None:
    """One status as a timeline would show it (a repost with its "original"), marked for
    `viewer` as pages are; None if it is gone, or (unless `include_suspended`) hidden as
    its author's (or its original's author's) are suspended. 1 round trip, 2 for a repost."""
    pipe = PackedPipeline(get_redis())
    _queue_statuses(pipe, [status_id], 1, viewer)
    replies = pipe.execute()
    page = _page([status_id], replies, 1, 1, viewer=viewer, include_suspended=include_suspended)
    statuses = page.statuses
    return statuses[0] if statuses else None


def timeline_page(uid: int, timeline: str = "home", page: int = 1, count: int = 30) -> Page:
    if timeline not in TIMELINES:
        raise ValueError(f"Unknown timeline {timeline!r}")
    return statuses_page(TIMELINES[timeline](uid), page, count)


@dataclass(frozen=True)
class HomePage:
    user: dict
    page: Page


def home_page(uid: int, page: int = 1, count: int = 30) -> HomePage | None:
    """`uid`'s home timeline as they see it, with their profile (the page's sidebar):
    2 round trips, 3 if it shows reposts. None for an unknown user."""
    conn = get_redis()
    pipe = PackedPipeline(conn)
    _page_ids(pipe, keys.home_timeline_key(uid), page, count)
    pipe.hgetall(user_key(uid))
    ids, user = pipe.execute()
    if not user:
        return None
    pipe = PackedPipeline(conn)
    _queue_statuses(pipe, ids, count, uid)
    return HomePage(
        user=decode_user(user), page=_page(ids, pipe.execute(), page, count, viewer=uid)
    )


def global_timeline_page(page: int = 1, count: int = 30, viewer: int | None = None) -> Page:
    """The newest statuses of everyone."""
    return statuses_page(keys.GLOBAL_TIMELINE, page, count, viewer=viewer)


def get_status_messages(
    uid: int, timeline: str = "home", page: int = 1, count: int = 30
) -> list[dict]:
    """A page of `uid`'s home or profile timeline, newest first, without deleted statuses."""
    return timeline_page(uid, timeline, page, count).statuses


def follow_user(uid: int, other_uid: int) -> bool | None:
    """Follows `other_uid` and copies their newest statuses into home: True; None if
    already following. ValueError for yourself or an unknown user."""
    uid, other_uid = int(uid), int(other_uid)
    if uid == other_uid:
        raise ValueError("You can't follow yourself.")
    conn = get_redis()
    now = time.time()
    home_size = settings.HOME_TIMELINE_SIZE
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), "login")
    scripts.run(
        pipe,
        "add_follower",
        [user_key(other_uid), keys.followers_key(other_uid), keys.profile_timeline_key(other_uid)],
        [uid, now, home_size],
    )
    login, followed = pipe.execute()
    if not login or not followed:
        raise ValueError("No such user.")
    other_login, entries = followed
    event = events.follow_changed(
        "follow", {"id": uid, "login": login}, {"id": other_uid, "login": other_login}, now
    )
    # ZADD wants score, member: the script's reply is member, score.
    pairs = [value for i in range(0, len(entries), 2) for value in (entries[i + 1], entries[i])]
    added = scripts.run(
        conn,
        "add_following",
        [user_key(uid), keys.following_key(uid), keys.home_timeline_key(uid)],
        [other_uid, now, home_size, STATUS_CHANNEL, event, *pairs],
    )
    return True if added else None


def unfollow_user(uid: int, other_uid: int) -> bool | None:
    """Unfollows `other_uid` and removes their statuses from home: True; None if not following."""
    uid, other_uid = int(uid), int(other_uid)
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), "login")
    losing_follower(pipe, other_uid, uid)
    login, unfollowed = pipe.execute()
    if not login or not unfollowed:
        return None
    other_login, ids = unfollowed
    follower, followed = {"id": uid, "login": login}, {"id": other_uid, "login": other_login}
    if not unfollowing(conn, follower, followed, ids):
        return None
    jobs.enqueue(conn, refill.refill_job(uid))
    return True


def losing_follower(client, uid: int, follower_uid: int) -> object:
    """Step 1 of an unfollow, in the followed user's slot: `follower_uid` leaves `uid`'s
    followers. Replies [`uid`'s login, their newest status ids], or nothing for an
    unknown user."""
    return scripts.run(
        client,
        "remove_follower",
        [user_key(uid), keys.followers_key(uid), keys.profile_timeline_key(uid)],
        [follower_uid, settings.HOME_TIMELINE_SIZE],
    )


def unfollowing(client, follower: dict, followed: dict, ids: list) -> object:
    """Step 2 of an unfollow, in the follower's slot: forgets `followed` and takes
    `ids` (their newest statuses) out of home, and publishes the unfollow. On a
    connection, whether they were followed; on a pipeline, queued."""
    event = events.follow_changed("unfollow", follower, followed, time.time())
    uid = follower["id"]
    return scripts.run(
        client,
        "remove_following",
        [user_key(uid), keys.following_key(uid), keys.home_timeline_key(uid)],
        [followed["id"], STATUS_CHANNEL, event, *ids],
    )


def is_following(uid: int, other_uid: int) -> bool:
    return get_redis().zscore(keys.following_key(uid), other_uid) is not None


def users_page(key: str, page: int, count: int) -> tuple[list[dict], bool]:
    """Page `page` (from 1) of the profiles in the sorted set at `key`, newest first, and
    whether an older page exists: 2 round trips."""
    uids = _page_ids(get_redis(), key, page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count


def followers_page(uid: int, page: int = 1, count: int = 50) -> tuple[list[dict], bool]:
    """Profiles of `uid`'s followers, newest follow first, and whether more follow."""
    return users_page(keys.followers_key(uid), page, count)


def following_page(uid: int, page: int = 1, count: int = 50) -> tuple[list[dict], bool]:
    """Profiles of the users `uid` follows, newest first, and whether more follow."""
    return users_page(keys.following_key(uid), page, count)


# Followers in common are looked for among this many of your newest follows.
COMMON_SCAN = 5000


def _in_common(following: list[str], scores: list[float | None], limit: int) -> list[int]:
    """The first `limit` of `following` that ZMSCORE found among the other user's followers."""
    common = [int(u) for u, score in zip(following, scores, strict=True) if score is not None]
    return common[:limit]


def followers_in_common(uid: int, other_uid: int, limit: int = 10) -> list[dict]:
    """People `uid` follows who also follow `other_uid` (Retwis's "followers in common").

    The two sets are in different slots, so no ZINTER: read one, test against the other."""
    conn = get_redis()
    following = conn.zrevrange(keys.following_key(uid), 0, COMMON_SCAN - 1)
    if not following:
        return []
    scores = conn.zmscore(keys.followers_key(other_uid), following)
    return get_users(_in_common(following, scores, limit))


@dataclass(frozen=True)
class ProfilePage:
    user: dict
    page: Page
    is_following: bool
    followers_in_common: list[dict]


def profile_page(
    login: str, viewer_uid: int | None = None, page: int = 1, count: int = 30, common: int = 10
) -> ProfilePage | None:
    """`login`'s profile and a page of their statuses as `viewer_uid` (or no one) sees them:
    whether the viewer follows them, and followers in common. None for an unknown login.

    3 round trips: the uid; their profile, the status ids and the viewer's follows; the
    statuses, the viewer's likes and reposts of them and the common-follower test. One
    more for the profiles of followers in common, if any, and for reposts' originals."""
    uid = uid_for_login(login)
    if uid is None:
        return None
    viewer = None if viewer_uid in (None, uid) else int(viewer_uid)
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hgetall(user_key(uid))
    _page_ids(pipe, keys.profile_timeline_key(uid), page, count)
    if viewer:
        pipe.zscore(keys.following_key(viewer), uid)
        pipe.zrevrange(keys.following_key(viewer), 0, COMMON_SCAN - 1)
    user, ids, *relation = pipe.execute()
    user = decode_user(user)
    if user is None:
        return None
    following_them, following = relation or (None, [])
    pipe = PackedPipeline(conn)
    shown = _queue_statuses(pipe, ids, count, viewer_uid)
    if following:
        pipe.zmscore(keys.followers_key(uid), following)
    replies = pipe.execute()
    common = _in_common(following, replies[shown], common) if following else []
    return ProfilePage(
        user=user,
        page=_page(ids, replies[:shown], page, count, viewer=viewer_uid),
        is_following=following_them is not None,
        followers_in_common=get_users(common),
    )
