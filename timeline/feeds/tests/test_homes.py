import time

from django.test import override_settings

from socialsite import jobs
from timeline import keys
from timeline.feeds import homes, refill
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.tests.pages import home_entries, ids, shows

DAY = 86_400


def last_read(redis_conn, uid, days_ago):
    """As if `uid` last read their home `days_ago` days ago."""
    user = redis_conn.hgetall(keys.user_key(uid))
    refill.note_home_read(redis_conn, uid, user, now=time.time() - days_ago * DAY)


@override_settings(POSTS_PER_PASS=1, HOME_INACTIVE_DAYS=14)
def test_an_inactive_home_is_dropped_skipped_by_fan_out_and_rebuilt_when_its_owner_returns(
    make_user, redis_conn
):
    author, active, away = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(active, author)  # first: the post's own pass reaches them
    graph.follow_user(away, author)
    before = posting.post_status(author, "before the pause")
    last_read(redis_conn, active, 1)
    last_read(redis_conn, away, 15)

    assert homes.drop_inactive_homes() == 1
    assert home_entries(away) == []
    assert home_entries(active) != []

    during = posting.post_status(author, "during the pause")
    jobs.work(burst=True)
    assert ids(feeds.get_status_messages(active)) == [during, before]
    assert home_entries(away) == []  # skipped: no home

    home = feeds.home_page(away)
    assert home.catching_up
    jobs.work(burst=True)
    home = feeds.home_page(away)
    assert not home.catching_up
    assert ids(home.page.statuses) == [during, before]


def test_a_recent_reader_keeps_their_home_and_a_read_is_recorded_once_an_hour(
    make_user, redis_conn
):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posting.post_status(author, "hi")
    feeds.home_page(me)
    recorded = redis_conn.zscore(keys.ACTIVE_HOMES, me)
    assert recorded is not None
    feeds.home_page(me)
    assert redis_conn.zscore(keys.ACTIVE_HOMES, me) == recorded
    assert homes.drop_inactive_homes() == 0
    assert home_entries(me) != []


def test_a_user_who_never_read_their_home_is_never_dropped(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    posting.post_status(author, "hi")
    assert homes.drop_inactive_homes(now=time.time() + 100 * DAY) == 0
    assert home_entries(me) != []


def test_the_home_page_says_it_is_catching_up_until_the_rebuild_is_done(make_user, redis_conn):
    user = make_user()
    client = user.client
    last_read(redis_conn, user.uid, 30)
    homes.drop_inactive_homes()
    assert shows(client.get("/"), "Your home timeline is catching up")
    jobs.work(burst=True)
    assert not shows(client.get("/"), "Your home timeline is catching up")


def test_fan_out_skips_exactly_the_homes_marked_dropped_and_a_read_clears_the_mark(
    make_user, redis_conn
):
    away, reader = make_user().uid, make_user().uid
    last_read(redis_conn, away, 30)
    last_read(redis_conn, reader, 30)
    feeds.home_page(reader)  # read again before the daily pass: kept, not marked
    assert homes.drop_inactive_homes() == 1
    assert homes.with_homes(redis_conn, [str(away), str(reader), "999999"]) == [
        str(reader),
        "999999",  # never read: active
    ]
    assert redis_conn.getbit(keys.DROPPED_HOMES, away) == 1
    feeds.home_page(away)  # the return: rebuilt, and reached by fan-out again
    assert redis_conn.getbit(keys.DROPPED_HOMES, away) == 0
    assert homes.with_homes(redis_conn, [str(away)]) == [str(away)]
