"""Home timelines scored newest first, as negated whole microseconds (timeline.scores):
what every reader and writer of a home sees of it."""

import time

from django.test import override_settings

from socialsite import jobs
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.feeds.selectors import Cursor, cursor_page
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.scores import HOME, POSTED
from timeline.statuses import cache, layout
from timeline.statuses.selectors import get_status
from timeline.statuses.tests.test_cache import soon
from timeline.tests.pages import ids


def test_a_home_score_is_its_status_time_in_whole_microseconds_negated():
    assert HOME.score(1_764_000_000.1234567) == -1_764_000_000_123_457
    assert HOME.score("1764000000.5") == -1_764_000_000_500_000
    assert HOME.posted(-1_764_000_000_123_457) == 1_764_000_000.123457
    assert POSTED.score("1764000000.25") == 1_764_000_000.25


def test_a_home_holds_its_statuses_newest_first_in_redis_order(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(3)]
    entries = redis_conn.zrange(keys.home_timeline_key(me), 0, -1, withscores=True)
    assert [int(status_id) for status_id, _ in entries] == posted[::-1]
    for status_id, score in entries:
        assert score == HOME.score(get_status(int(status_id))["posted"])
        assert score == int(score)


def test_a_follow_copies_profile_entries_into_home_with_home_scores(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    posted = [posting.post_status(author, f"status {n}") for n in range(3)]
    graph.follow_user(me, author)
    home = redis_conn.zrange(keys.home_timeline_key(me), 0, -1, withscores=True)
    profile = redis_conn.zrevrange(keys.profile_timeline_key(author), 0, -1, withscores=True)
    assert [int(status_id) for status_id, _ in home] == posted[::-1]
    assert [score for _, score in home] == [HOME.score(posted) for _, posted in profile]


def at_one_time(redis_conn, home_key, status_ids, posted):
    """Puts `status_ids` in a home, all posted at the same microsecond."""
    for status_id in status_ids:
        redis_conn.hset(keys.status_key(status_id), mapping=layout.posted_field(posted))
    redis_conn.zadd(home_key, dict.fromkeys(map(str, status_ids), HOME.score(posted)))


def test_pages_of_a_home_show_statuses_of_one_microsecond_once_each(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(7)]
    at_one_time(redis_conn, keys.home_timeline_key(me), posted, time.time())
    seen = []
    for page in range(1, 5):
        seen += ids(feeds.home_page(me, page=page, count=2).page.statuses)
    assert sorted(seen) == sorted(posted) and len(seen) == len(posted)


def test_cursor_pages_of_a_home_run_newest_first_between_their_bounds(make_user):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(5)]
    first = cursor_page("home", me, Cursor(), 2)
    assert ids(first.statuses) == [posted[4], posted[3]] and first.has_older
    older = cursor_page("home", me, Cursor(max_id=posted[3]), 2)
    assert ids(older.statuses) == [posted[2], posted[1]] and older.has_older
    assert ids(cursor_page("home", me, Cursor(since_id=posted[1]), 2).statuses) == posted[:2:-1]
    assert ids(cursor_page("home", me, Cursor(min_id=posted[1]), 2).statuses) == [
        posted[3],
        posted[2],
    ]
    between = Cursor(max_id=posted[4], since_id=posted[1])
    assert ids(cursor_page("home", me, between, 10).statuses) == [posted[3], posted[2]]


def test_a_cursor_bound_from_another_timeline_bounds_a_home_by_its_posted_time(make_user):
    me, author, other = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, author)
    before = posting.post_status(author, "before")
    elsewhere = posting.post_status(other, "not followed")  # not in my home
    after = posting.post_status(author, "after")
    assert ids(cursor_page("home", me, Cursor(max_id=elsewhere), 10).statuses) == [before]
    assert ids(cursor_page("home", me, Cursor(since_id=elsewhere), 10).statuses) == [after]


def test_a_kept_status_is_served_only_for_the_home_score_of_its_posted_time(make_user):
    me = make_user().uid
    status_id = str(posting.post_status(me, "kept"))
    assert soon(cache.statuses.serving)
    (status,) = feeds.get_status_messages(me)  # read once the cache serves: kept
    posted = status["posted"]
    assert cache.statuses.get_many([(status_id, HOME.score(posted))], HOME)
    assert not cache.statuses.get_many([(status_id, HOME.score(posted + 0.001))], HOME)
    assert not cache.statuses.get_many([(status_id, posted)], HOME)


def test_a_home_page_serves_kept_statuses_only_at_their_own_time(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    status_id = posting.post_status(author, "original")
    assert feeds.get_status_messages(me)[0]["message"] == "original"
    # The id now holds another status (as after a flush), posted at another time.
    redis_conn.hset(
        keys.status_key(status_id), mapping={"message": "another", **layout.posted_field(1.0)}
    )
    redis_conn.zadd(keys.home_timeline_key(me), {status_id: HOME.score(1.0)})
    assert feeds.get_status_messages(me)[0]["message"] == "another"


@override_settings(HOME_TIMELINE_SIZE=3, HOME_TRIM_EVERY=1, POSTS_PER_PASS=1)
def test_trims_keep_the_newest_of_a_home_whoever_trims_it(make_user, redis_conn):
    me, author, other = make_user().uid, make_user().uid, make_user().uid
    for n in range(4):
        posting.post_status(other, f"older {n}")
    graph.follow_user(me, other)  # the follow's copy trims
    assert redis_conn.zcard(keys.home_timeline_key(me)) == 3
    graph.follow_user(me, author)
    graph.follow_user(make_user().uid, author)  # past the first pass: a job delivers
    newest = [posting.post_status(author, f"newest {n}") for n in range(2)]
    mine = posting.post_status(me, "my own")  # the author's own home trims too
    jobs.work(burst=True)
    home = redis_conn.zrange(keys.home_timeline_key(me), 0, -1)
    assert [int(status_id) for status_id in home] == [mine, *newest[::-1]]
