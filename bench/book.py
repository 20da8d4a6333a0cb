"""The book's code (Redis in Action, listings 8.1-8.6), the baseline to beat.

Kept as the book wrote it, one round trip per command or pipeline, ported to
redis-py 3+ (zadd takes a mapping) and to this project's key names so both run on
the same data, but for home timelines and the follow graph: the book's homes keep
its scores (Unix seconds, newest highest) in keys of their own, where the site's are
lists of status ids (timeline.feeds.home_list), and its followers are one sorted set each,
where the site's are cut into pieces (timeline.follow_sets.followers), so both do their own
work on the same server in the same run."""

import time

from accounts.keys import user_key
from timeline import keys

POSTS_PER_PASS = 1000
HOME_TIMELINE_SIZE = 1000


def home_timeline_key(uid: int) -> str:
    return f"book:home:{{{uid}}}"


def followers_key(uid: int) -> str:
    return f"book:followers:{{{uid}}}"


def following_key(uid: int) -> str:
    return f"book:following:{{{uid}}}"


def create_status(conn, uid: int, message: str, **data) -> int | None:
    pipeline = conn.pipeline(True)
    pipeline.hget(user_key(uid), "login")
    pipeline.incr(keys.STATUS_ID_COUNTER)
    login, id = pipeline.execute()
    if not login:
        return None
    data.update({"message": message, "posted": time.time(), "id": id, "uid": uid, "login": login})
    pipeline.hset(keys.status_key(id), mapping=data)
    pipeline.hincrby(user_key(uid), "posts")
    pipeline.execute()
    return id


def post_status(conn, uid: int, message: str, **data) -> int | None:
    id = create_status(conn, uid, message, **data)
    if not id:
        return None
    posted = conn.hget(keys.status_key(id), "posted")
    if not posted:
        return None
    post = {str(id): float(posted)}
    conn.zadd(keys.profile_timeline_key(uid), post)
    syndicate_status(conn, uid, post)
    return id


def syndicate_status(conn, uid: int, post: dict, start: float = 0) -> None:
    followers = conn.zrangebyscore(
        followers_key(uid), start, "inf", start=0, num=POSTS_PER_PASS, withscores=True
    )
    pipeline = conn.pipeline(False)
    for follower, start in followers:  # noqa: B007  (the cursor: the last score seen)
        pipeline.zadd(home_timeline_key(follower), post)
        pipeline.zremrangebyrank(home_timeline_key(follower), 0, -HOME_TIMELINE_SIZE - 1)
    pipeline.execute()
    if len(followers) >= POSTS_PER_PASS:
        execute_later(conn, "default", "syndicate_status", [conn, uid, post, start])


# The book's task queue (chapter 6), reduced to a list: its own cost is left out.
deferred: list = []


def execute_later(conn, queue: str, name: str, args: list) -> None:
    deferred.append((globals()[name], args))


def run_deferred() -> None:
    """Runs the queued tasks and those they queue (the cursor is inclusive, so the last
    follower of each pass is redone, and a pass all at one score would loop forever:
    the bench seeds distinct follow times)."""
    while deferred:
        task, args = deferred.pop(0)
        task(*args)


def get_status_messages(conn, uid: int, timeline=home_timeline_key, page=1, count=30):
    statuses = conn.zrevrange(timeline(uid), (page - 1) * count, page * count - 1)
    pipeline = conn.pipeline(True)
    for id in statuses:
        pipeline.hgetall(keys.status_key(id))
    return [_f for _f in pipeline.execute() if _f]


def follow_user(conn, uid: int, other_uid: int) -> bool | None:
    fkey1 = following_key(uid)
    fkey2 = followers_key(other_uid)
    if conn.zscore(fkey1, other_uid):
        return None
    now = time.time()
    pipeline = conn.pipeline(True)
    pipeline.zadd(fkey1, {other_uid: now})
    pipeline.zadd(fkey2, {uid: now})
    pipeline.zcard(fkey1)
    pipeline.zcard(fkey2)
    pipeline.zrevrange(
        keys.profile_timeline_key(other_uid), 0, HOME_TIMELINE_SIZE - 1, withscores=True
    )
    following, followers, status_and_score = pipeline.execute()[-3:]
    pipeline.hset(user_key(uid), "following", following)
    pipeline.hset(user_key(other_uid), "followers", followers)
    if status_and_score:
        pipeline.zadd(home_timeline_key(uid), dict(status_and_score))
    pipeline.zremrangebyrank(home_timeline_key(uid), 0, -HOME_TIMELINE_SIZE - 1)
    pipeline.execute()
    return True


def unfollow_user(conn, uid: int, other_uid: int) -> bool | None:
    fkey1 = following_key(uid)
    fkey2 = followers_key(other_uid)
    if not conn.zscore(fkey1, other_uid):
        return None
    pipeline = conn.pipeline(True)
    pipeline.zrem(fkey1, other_uid)
    pipeline.zrem(fkey2, uid)
    pipeline.zcard(fkey1)
    pipeline.zcard(fkey2)
    pipeline.zrevrange(keys.profile_timeline_key(other_uid), 0, HOME_TIMELINE_SIZE - 1)
    following, followers, statuses = pipeline.execute()[-3:]
    pipeline.hset(user_key(uid), "following", following)
    pipeline.hset(user_key(other_uid), "followers", followers)
    if statuses:
        pipeline.zrem(home_timeline_key(uid), *statuses)
    pipeline.execute()
    return True
