from django.test import override_settings

from socialsite import jobs
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.tests.pages import home_entries, ids


def home(uid):
    return ids(feeds.get_status_messages(uid, count=100))


# Trimmed on every delivery, so that quiet's oldest are really gone before the unfollow.
@override_settings(HOME_TIMELINE_SIZE=6, HOME_TRIM_EVERY=1)
def test_after_an_unfollow_home_is_refilled_from_the_people_still_followed(make_user):
    me, loud, quiet = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, quiet)
    graph.follow_user(me, loud)
    quiet_ones = [posting.post_status(quiet, f"q{i}") for i in range(6)]
    posting.post_status(loud, "shouting")  # pushes the oldest of quiet's out
    loud_ones = [posting.post_status(loud, f"l{i}") for i in range(4)]
    assert len(home(me)) == 6
    graph.unfollow_user(me, loud)
    assert len(home(me)) == 1  # until the worker refills it
    jobs.work(burst=True)
    assert home(me) == quiet_ones[::-1]
    assert not set(loud_ones) & set(home(me))


@override_settings(HOME_TIMELINE_SIZE=5, REFILL_FOLLOWEES_PER_PASS=2)
def test_the_refill_merges_everyone_followed_newest_first_without_duplicates(make_user):
    me, dropped = make_user().uid, make_user().uid
    friends = [make_user().uid for _ in range(5)]
    for friend in friends:
        graph.follow_user(me, friend)
    graph.follow_user(me, dropped)
    posted = [posting.post_status(friend, "x") for friend in friends for _ in range(2)]
    mine = posting.post_status(me, "mine")
    for _ in range(5):
        posting.post_status(dropped, "noise")
    graph.unfollow_user(me, dropped)
    jobs.work(burst=True)
    expected = sorted([*posted, mine], reverse=True)[:5]
    assert home(me) == expected
    assert len(home_entries(me)) == 5


def test_a_refill_brings_back_only_people_still_followed(make_user):
    me, first, second = make_user().uid, make_user().uid, make_user().uid
    graph.follow_user(me, first)
    graph.follow_user(me, second)
    posting.post_status(first, "from first")
    kept = posting.post_status(second, "from second")
    graph.unfollow_user(me, first)
    graph.unfollow_user(me, second)
    graph.follow_user(me, second)
    jobs.work(burst=True)
    assert home(me) == [kept]


def test_unfollowing_someone_you_dont_follow_queues_nothing(make_user):
    me, other = make_user().uid, make_user().uid
    graph.unfollow_user(me, other)
    assert jobs.queue_stats()["queued"] == 0
