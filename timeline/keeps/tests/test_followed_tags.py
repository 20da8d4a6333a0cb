import pytest
from django.test import override_settings

from socialsite import jobs
from timeline import keys
from timeline.graph import services as graph
from timeline.keeps import selectors, services
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.statuses.selectors import AlreadyDone
from timeline.tests.pages import home_entries


def test_a_followed_tags_public_statuses_reach_the_followers_home(make_user):
    author, reader = make_user().uid, make_user().uid
    assert services.follow_tag(reader, "#Redis") == "redis"
    status_id = posting.post_status(author, "all about #redis today")
    posting.post_status(author, "nothing tagged")
    jobs.work(burst=True)
    assert home_entries(reader) == [status_id]


def test_a_tag_follower_who_follows_the_author_gets_the_status_once(make_user):
    author, reader = make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    services.follow_tag(reader, "redis")
    services.follow_tag(reader, "cluster")
    status_id = posting.post_status(author, "#redis #cluster")
    jobs.work(burst=True)
    assert home_entries(reader) == [status_id]


def test_a_status_with_two_followed_tags_reaches_a_stranger_once(make_user):
    author, reader = make_user().uid, make_user().uid
    services.follow_tag(reader, "redis")
    services.follow_tag(reader, "cluster")
    status_id = posting.post_status(author, "#redis #cluster")
    jobs.work(burst=True)
    assert home_entries(reader) == [status_id]


def test_the_author_and_followers_of_a_private_account_get_nothing_twice(make_user):
    author, reader = make_user().uid, make_user().uid
    services.follow_tag(author, "redis")
    services.follow_tag(reader, "redis")
    safety.set_private(author, True)
    private_id = posting.post_status(author, "#redis for followers")
    jobs.work(burst=True)
    assert home_entries(reader) == []
    assert home_entries(author) == [private_id]


def test_reposts_dont_reach_tag_followers(make_user):
    author, reposter, reader = make_user().uid, make_user().uid, make_user().uid
    status_id = posting.post_status(author, "#redis")
    jobs.work(burst=True)
    services.follow_tag(reader, "redis")
    reactions.repost(reposter, status_id)
    jobs.work(burst=True)
    assert home_entries(reader) == []


def test_a_deleted_status_leaves_the_tag_followers_homes(make_user):
    author, reader = make_user().uid, make_user().uid
    services.follow_tag(reader, "redis")
    status_id = posting.post_status(author, "#redis")
    jobs.work(burst=True)
    posting.delete_status(author, status_id)
    jobs.work(burst=True)
    assert home_entries(reader) == []


@override_settings(FAN_OUT_JOB_SIZE=2, POSTS_PER_PASS=2)
def test_many_tag_followers_are_reached_by_chunks(make_user):
    author = make_user().uid
    readers = [make_user().uid for _ in range(7)]
    for reader in readers:
        services.follow_tag(reader, "redis")
    status_id = posting.post_status(author, "#redis")
    jobs.work(burst=True)
    assert all(home_entries(reader) == [status_id] for reader in readers)


def test_following_and_unfollowing_a_tag(make_user, redis_conn):
    reader = make_user().uid
    services.follow_tag(reader, "Redis")
    with pytest.raises(AlreadyDone):
        services.follow_tag(reader, "redis")
    assert [t.name for t in selectors.followed_tags(reader)] == ["redis"]
    assert selectors.follows_tag(reader, "REDIS") and selectors.tag_follower_uids("redis") == [
        reader
    ]
    services.unfollow_tag(reader, "redis")
    with pytest.raises(AlreadyDone):
        services.unfollow_tag(reader, "redis")
    assert selectors.followed_tags(reader) == [] and selectors.tag_follower_uids("redis") == []
    posting.post_status(make_user().uid, "#redis")
    jobs.work(burst=True)
    assert home_entries(reader) == []


def test_a_bad_tag_or_too_many_are_refused_and_change_nothing(make_user, redis_conn):
    reader = make_user().uid
    for bad in ("", "#", "no spaces", "x" * 101, "émoji✨"):
        with pytest.raises(ValueError):
            services.follow_tag(reader, bad)
    with override_settings(FOLLOWED_TAGS_MAX=1):
        services.follow_tag(reader, "one")
        with pytest.raises(ValueError, match="up to 1"):
            services.follow_tag(reader, "two")
    assert [t.name for t in selectors.followed_tags(reader)] == ["one"]
    assert not redis_conn.exists(keys.tag_followers_key("two"))


def test_a_deleted_account_leaves_the_tags_it_followed(make_user, redis_conn):
    from accounts.services import close_account

    reader = make_user("leaver").uid
    services.follow_tag(reader, "redis")
    close_account(reader)
    jobs.work(burst=True)
    assert selectors.tag_follower_uids("redis") == []
    assert not redis_conn.exists(keys.followed_tags_key(reader))


def test_a_status_made_private_after_delivery_still_leaves_the_tag_followers_homes(make_user):
    author, reader = make_user().uid, make_user().uid
    services.follow_tag(reader, "redis")
    status_id = posting.post_status(author, "#redis")
    jobs.work(burst=True)
    safety.set_private(author, True)
    jobs.work(burst=True)  # marks their statuses private
    posting.delete_status(author, status_id)
    jobs.work(burst=True)
    assert home_entries(reader) == []


def test_pages_of_followed_tags_neither_repeat_nor_skip_at_a_cursor(make_user, redis_conn):
    """A cursor (whole microseconds) turned back into seconds can sit a hair above the
    score it came from, as 1795000000.5347836 does: the next page still starts after it."""
    reader = make_user().uid
    scores = {"one": 1795000000.1, "two": 1795000000.5347836, "three": 1795000000.9}
    redis_conn.zadd(keys.followed_tags_key(reader), scores)
    first = selectors.followed_tags(reader, 2)
    assert [t.name for t in first] == ["three", "two"]
    rest = selectors.followed_tags(reader, 2, before=first[-1].cursor)
    assert [t.name for t in rest] == ["one"]
