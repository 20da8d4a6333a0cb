"""Home timelines as lists of status ids (timeline.feeds.home_list): what every reader and
writer of a home sees of it, with statuses delivered late or twice."""

from django.test import override_settings

from socialsite import jobs
from socialsite.redis import PackedPipeline
from timeline import keys
from timeline.feeds import fanout, home_list
from timeline.feeds import selectors as feeds
from timeline.feeds.selectors import Cursor, cursor_page
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses import cache
from timeline.statuses.tests.test_cache import soon
from timeline.tests.pages import ids


def stored(redis_conn, uid: int) -> list[int]:
    return [int(i) for i in redis_conn.lrange(keys.home_timeline_key(uid), 0, -1)]


def deliver_again(redis_conn, status_ids: list[int], uid: int) -> None:
    """Delivers `status_ids` to `uid`'s home as a fan-out job does, in that order (late,
    or a second time)."""
    pipe = PackedPipeline(redis_conn)
    for status_id in status_ids:
        fanout.deliver(pipe, status_id, 0.0, [uid], 1000)
    pipe.execute()


def test_a_home_holds_its_statuses_newest_first_as_ids(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(3)]
    mine = posting.post_status(me, "mine")
    assert stored(redis_conn, me) == [mine, *posted[::-1]]
    assert redis_conn.type(keys.home_timeline_key(me)) == "list"


def test_a_follow_merges_the_followed_users_statuses_into_home_in_order(make_user, redis_conn):
    me, early, late = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, late)
    statuses = [posting.post_status(author, "s") for author in (early, late, early, late)]
    graph.follow_user(me, early)  # their statuses go in among the ones home has
    assert stored(redis_conn, me) == statuses[::-1]
    assert ids(feeds.get_status_messages(me)) == statuses[::-1]


def test_a_status_delivered_late_is_shown_in_its_place_and_home_is_put_in_order(
    make_user, redis_conn
):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(5)]
    redis_conn.lrem(keys.home_timeline_key(me), 0, posted[1])
    deliver_again(redis_conn, [posted[1]], me)  # a job that ran after newer statuses came
    assert stored(redis_conn, me)[0] == posted[1]
    assert ids(feeds.get_status_messages(me, count=2)) == [posted[4], posted[3]]
    # The read that found it out of order had the home sorted.
    assert stored(redis_conn, me) == posted[::-1]


def test_a_status_delivered_twice_is_shown_once_on_every_page(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(7)]
    with override_settings(STATUS_CACHE_SIZE=0):  # every page reads its window
        deliver_again(redis_conn, [posted[2], posted[5], posted[0], posted[5]], me)
        pages = [ids(feeds.home_page(me, page=n, count=2).page.statuses) for n in (1, 2, 3, 4)]
    assert pages == [posted[6:4:-1], posted[4:2:-1], posted[2:0:-1], posted[:1]]
    assert stored(redis_conn, me) == posted[::-1]


def test_cursor_pages_run_through_late_and_repeated_deliveries_once_each(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posted = [posting.post_status(author, f"status {n}") for n in range(6)]
    deliver_again(redis_conn, [posted[1], posted[4], posted[1]], me)
    seen, cursor = [], Cursor()
    while page := cursor_page("home", me, cursor, 2).statuses:
        seen += ids(page)
        cursor = Cursor(max_id=page[-1]["id"])
    assert seen == posted[::-1]
    newer = cursor_page("home", me, Cursor(min_id=posted[1]), 2)
    assert ids(newer.statuses) == [posted[3], posted[2]] and newer.has_older


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


def test_a_cursor_bound_from_another_timeline_bounds_a_home_by_its_id(make_user):
    me, author, other = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, author)
    before = posting.post_status(author, "before")
    elsewhere = posting.post_status(other, "not followed")  # not in my home
    after = posting.post_status(author, "after")
    assert ids(cursor_page("home", me, Cursor(max_id=elsewhere), 10).statuses) == [before]
    assert ids(cursor_page("home", me, Cursor(since_id=elsewhere), 10).statuses) == [after]


def test_unfollowing_takes_every_copy_of_their_statuses_out_of_home(make_user, redis_conn):
    me, gone, stays = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, gone)
    graph.follow_user(me, stays)
    theirs = posting.post_status(gone, "goes")
    kept = posting.post_status(stays, "stays")
    deliver_again(redis_conn, [theirs], me)
    graph.unfollow_user(me, gone)
    jobs.work(burst=True)
    assert stored(redis_conn, me) == [kept]


def test_a_deleted_status_delivered_twice_leaves_home_entirely(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    doomed = posting.post_status(author, "goes")
    deliver_again(redis_conn, [doomed], me)
    posting.delete_status(author, doomed)
    jobs.work(burst=True)
    assert stored(redis_conn, me) == []


def test_a_kept_status_is_served_to_a_home_only_under_the_epoch_it_was_kept_under(
    make_user, redis_conn
):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    status_id = posting.post_status(author, "original")
    assert soon(cache.statuses.serving)
    assert feeds.get_status_messages(me)[0]["message"] == "original"  # kept
    epoch = redis_conn.get(keys.STATUSES_EPOCH)
    assert cache.statuses.get_by_id([str(status_id)], epoch)
    assert not cache.statuses.get_by_id([str(status_id)], None)
    # The id now names another status, as after the store was emptied (which takes
    # the epoch with it).
    redis_conn.hset(keys.status_key(status_id), "message", "another")
    redis_conn.delete(keys.STATUSES_EPOCH)
    assert feeds.get_status_messages(me)[0]["message"] == "another"
    assert redis_conn.get(keys.STATUSES_EPOCH) not in (None, epoch)


@override_settings(HOME_TIMELINE_SIZE=3, HOME_TRIM_EVERY=1, POSTS_PER_PASS=1)
def test_trims_keep_the_newest_of_a_home_whoever_trims_it(make_user, redis_conn):
    me, author, other = make_user().uid, make_user().uid, make_user().uid
    for n in range(4):
        posting.post_status(other, f"older {n}")
    graph.follow_user(me, other)  # the follow's merge keeps the newest
    assert redis_conn.llen(keys.home_timeline_key(me)) == 3
    graph.follow_user(me, author)
    graph.follow_user(make_user().uid, author)  # past the first pass: a job delivers
    newest = [posting.post_status(author, f"newest {n}") for n in range(2)]
    mine = posting.post_status(me, "my own")  # the author's own home trims too
    jobs.work(burst=True)
    assert stored(redis_conn, me) == [mine, *newest[::-1]]


def test_newest_first_takes_each_id_once_by_number():
    assert home_list.newest_first(["9", "10", "9", "100", "2"]) == ["100", "10", "9", "2"]
    assert home_list.in_order(["100", "10", "9"])
    assert not home_list.in_order(["10", "100"])
    assert not home_list.in_order(["10", "10"])
