from django.test import override_settings

from timeline import jobs, keys, services
from timeline.tests.pages import ids


def home(uid):
    return ids(services.get_status_messages(uid, count=100))


@override_settings(HOME_TIMELINE_SIZE=6)
def test_after_an_unfollow_home_is_refilled_from_the_people_still_followed(make_user):
    me, loud, quiet = make_user(), make_user(), make_user()
    services.follow_user(me, quiet)
    services.follow_user(me, loud)
    quiet_ones = [services.post_status(quiet, f"q{i}") for i in range(6)]
    services.post_status(loud, "shouting")  # pushes the oldest of quiet's out
    loud_ones = [services.post_status(loud, f"l{i}") for i in range(4)]
    assert len(home(me)) == 6
    services.unfollow_user(me, loud)
    assert len(home(me)) == 1  # until the worker refills it
    jobs.work(burst=True)
    assert home(me) == quiet_ones[::-1]
    assert not set(loud_ones) & set(home(me))


@override_settings(HOME_TIMELINE_SIZE=5, REFILL_FOLLOWEES_PER_PASS=2)
def test_the_refill_merges_everyone_followed_newest_first_without_duplicates(make_user, redis_conn):
    me, dropped = make_user(), make_user()
    friends = [make_user() for _ in range(5)]
    for friend in friends:
        services.follow_user(me, friend)
    services.follow_user(me, dropped)
    posted = [services.post_status(friend, "x") for friend in friends for _ in range(2)]
    mine = services.post_status(me, "mine")
    for _ in range(5):
        services.post_status(dropped, "noise")
    services.unfollow_user(me, dropped)
    jobs.work(burst=True)
    expected = sorted([*posted, mine], reverse=True)[:5]
    assert home(me) == expected
    assert redis_conn.zcard(keys.home_timeline_key(me)) == 5


def test_a_refill_brings_back_only_people_still_followed(make_user):
    me, first, second = make_user(), make_user(), make_user()
    services.follow_user(me, first)
    services.follow_user(me, second)
    services.post_status(first, "from first")
    kept = services.post_status(second, "from second")
    services.unfollow_user(me, first)
    services.unfollow_user(me, second)
    services.follow_user(me, second)
    jobs.work(burst=True)
    assert home(me) == [kept]


def test_unfollowing_someone_you_dont_follow_queues_nothing(make_user):
    me, other = make_user(), make_user()
    services.unfollow_user(me, other)
    assert jobs.queue_stats()["queued"] == 0
