import asyncio

import pytest
from django.core.management import call_command
from django.test import override_settings
from redis.crc import key_slot

from accounts import services as account_services
from accounts.keys import user_key
from socialsite.redis import Batch, PackedPipeline, for_each_primary, get_async_redis
from streaming import services as streaming
from timeline import keys
from timeline.audience import selectors as safety_selectors
from timeline.feeds import refill
from timeline.follow_sets import followers as follower_sets
from timeline.follow_sets import following
from timeline.graph import selectors
from timeline.graph import services as graph
from timeline.ops import maintenance
from timeline.ops.seeding import seed_network
from timeline.posting import services as posting
from timeline.safety import services as safety

SPLIT = 4

# A small split, so a handful of follows makes buckets.
pytestmark = pytest.mark.usefixtures("small_split")


@pytest.fixture
def small_split():
    with override_settings(FOLLOWING_SPLIT=SPLIT):
        yield


def stored_keys(redis_conn, uid: int) -> dict[str, int]:
    """Every key that holds `uid`'s follows, and how many each holds."""
    return {
        key: redis_conn.zcard(key)
        for server in for_each_primary(redis_conn)
        for key in server.scan_iter(match=f"{keys.following_key(uid)}*")
    }


def follows_long_ago(redis_conn, uid: int, followees: list[int], when=lambda i: 1000 + i):
    """`uid` followed `followees` long ago, at `when(i)` each (both sides and the counts,
    as seeding writes them: more than the split straight into buckets)."""
    pipe = redis_conn.pipeline(transaction=False)
    following.queue_add(pipe, uid, {other: when(i) for i, other in enumerate(followees)})
    for i, other in enumerate(followees):
        pipe.zadd(keys.followers_key(other), {uid: when(i)})
        pipe.hincrby(user_key(other), "followers", 1)
    pipe.hincrby(user_key(uid), "following", len(followees))
    pipe.execute()


@pytest.fixture
def split_user(make_user):
    """A user who follows SPLIT + 2 others, one by one: (them, whom they follow)."""
    uid = make_user().uid
    others = [make_user().uid for _ in range(SPLIT + 2)]
    for other in others:
        assert graph.follow_user(uid, other) is True
    return uid, others


def test_the_follow_past_the_split_moves_them_all_into_buckets(make_user, redis_conn):
    uid = make_user().uid
    others = [make_user().uid for _ in range(SPLIT + 1)]
    for other in others[:SPLIT]:
        graph.follow_user(uid, other)
    assert stored_keys(redis_conn, uid) == {keys.following_key(uid): SPLIT}
    graph.follow_user(uid, others[-1])
    held = stored_keys(redis_conn, uid)
    assert keys.following_key(uid) not in held
    assert sum(held.values()) == SPLIT + 1
    for other in others:
        assert redis_conn.zscore(following.bucket_key(uid, other), other) is not None
    assert account_services.get_user(uid)["following"] == SPLIT + 1


def test_does_x_follow_y_is_answered_on_both_sides_of_the_split(split_user, make_user, redis_conn):
    uid, others = split_user
    # The last follow went into the base again, the rest are in buckets.
    assert redis_conn.zscore(keys.following_key(uid), others[-1]) is not None
    assert redis_conn.zscore(keys.following_key(uid), others[0]) is None
    stranger = make_user().uid
    assert all(selectors.is_following(uid, other) for other in others)
    assert not selectors.is_following(uid, stranger)
    assert selectors.following_among(uid, [*others, stranger]) == set(others)
    assert following.follows(uid, [others[0], stranger, others[-1]]) == [True, False, True]
    assert following.follows_of(redis_conn, [uid, stranger], others[1]) == [True, False]
    assert selectors.relationships(others[2], [uid, stranger]) == [(False, True), (False, False)]
    assert safety_selectors.may_message(uid, others[3]) is True


def test_following_again_after_the_split_changes_nothing(split_user):
    uid, others = split_user
    assert graph.follow_user(uid, others[0]) is None
    assert graph.follow_user(uid, others[-1]) is None
    assert account_services.get_user(uid)["following"] == SPLIT + 2


def test_unfollows_after_the_split_leave_the_counts_right(split_user, redis_conn):
    uid, others = split_user
    for other in (others[0], others[-1]):
        assert graph.unfollow_user(uid, other) is True
        assert graph.unfollow_user(uid, other) is None
        assert not selectors.is_following(uid, other)
        assert account_services.get_user(other)["followers"] == 0
    assert sum(stored_keys(redis_conn, uid).values()) == SPLIT
    assert account_services.get_user(uid)["following"] == SPLIT
    assert maintenance.repair().findings == []


def test_following_pages_across_buckets_are_newest_first(make_user, redis_conn):
    uid = make_user().uid
    old = [make_user().uid for _ in range(9)]
    follows_long_ago(redis_conn, uid, old)
    new = make_user().uid
    graph.follow_user(uid, new)  # now: in the base, the rest in buckets
    pages, more, page = [], True, 1
    while more:
        people, more = selectors.following_page(uid, page, 3, viewer=uid)
        pages.append([person["id"] for person in people])
        page += 1
    assert pages == [[new, old[8], old[7]], old[6:3:-1], old[3:0:-1], [old[0]]]
    assert selectors.following_page(uid, 5, 3, viewer=uid) == ([], False)
    with pytest.raises(ValueError, match="start at 1"):
        selectors.following_page(uid, page=0, viewer=uid)


def test_reads_merge_the_keys_as_one_sorted_set_orders_them(make_user, redis_conn):
    uid = make_user().uid
    others = [make_user().uid for _ in range(13)]
    # Ties at three instants, across buckets and the base.
    follows_long_ago(redis_conn, uid, others[:10], when=lambda i: 1000 + i // 4)
    follows_long_ago(redis_conn, uid, others[10:], when=lambda i: 1001)
    one_key = "test:one-key"
    redis_conn.zadd(one_key, {o: s for o, s in following.pairs(everything(redis_conn, uid))})
    assert len(redis_conn.zrange(one_key, 0, -1)) == 13
    # Most of them (merged by ZUNION) and a few (merged head by head).
    for offset, count in ((0, 13), (0, 5), (3, 4), (11, 5), (13, 2), (0, 3), (1, 2)):
        assert following.queue_newest(redis_conn, uid, offset, count) == redis_conn.zrevrange(
            one_key, offset, offset + count - 1
        )
    for after, skip, count in (("-inf", 0, 13), ("1001", 2, 3), ("1001", 0, 100), ("(1001", 1, 2)):
        assert following.queue_from(redis_conn, uid, after, skip, count) == [
            v
            for member, score in redis_conn.zrangebyscore(
                one_key, after, "+inf", start=skip, num=count, withscores=True
            )
            for v in (member, str(int(score)))
        ]


def everything(redis_conn, uid: int) -> list:
    return following.queue_from(redis_conn, uid, "-inf", 0, 1000)


def test_a_refill_walks_the_followees_in_buckets(make_user, redis_conn):
    uid = make_user().uid
    authors = [make_user().uid for _ in range(SPLIT + 3)]
    posted = [posting.post_status(author, f"hello from {i}") for i, author in enumerate(authors)]
    follows_long_ago(redis_conn, uid, authors, when=lambda i: 1000 + i // 2)
    assert redis_conn.llen(keys.home_timeline_key(uid)) == 0
    job = refill.refill_job(uid)
    with override_settings(REFILL_FOLLOWEES_PER_PASS=2):
        while job:
            (job, *_) = refill.refill_home_batch(job[1]) or [None]
    home = [int(i) for i in redis_conn.lrange(keys.home_timeline_key(uid), 0, -1)]
    assert home == sorted(posted, reverse=True)


def test_a_block_between_split_users_ends_the_follow(split_user, redis_conn):
    uid, others = split_user
    assert safety.block(others[0], uid) is True
    assert not selectors.is_following(uid, others[0])
    assert account_services.get_user(uid)["following"] == SPLIT + 1
    assert maintenance.repair().findings == []


def test_a_private_account_followed_from_a_bucket_shows_itself(split_user, make_user):
    uid, others = split_user
    private = make_user().uid
    safety.set_private(private, True)
    assert graph.follow_user(uid, private) is False  # asks
    graph.approve_follower(private, uid)
    assert selectors.is_following(uid, private)
    assert safety_selectors.may_see_account(private, uid) is True
    assert safety_selectors.may_see_account(private, others[0]) is False


@pytest.mark.django_db
def test_a_deleted_split_account_leaves_no_bucket_behind(split_user, redis_conn):
    uid, others = split_user
    account_services.close_account(uid)
    call_command("worker", burst=True)
    assert stored_keys(redis_conn, uid) == {}
    assert all(account_services.get_user(o)["followers"] == 0 for o in others)


def test_the_migration_moves_old_big_sets_once(make_user, redis_conn):
    uid = make_user().uid
    others = [make_user().uid for _ in range(SPLIT * 3)]
    # As kept before buckets: one key, past the split.
    with override_settings(FOLLOWING_SPLIT=100):
        follows_long_ago(redis_conn, uid, others)
    assert stored_keys(redis_conn, uid) == {keys.following_key(uid): SPLIT * 3}
    call_command("split_following")
    assert keys.following_key(uid) not in stored_keys(redis_conn, uid)
    assert following.split_every_big_set() == (0, 0)  # again: nothing to do
    assert all(selectors.is_following(uid, other) for other in others)
    assert graph.unfollow_user(uid, others[5]) is True
    assert maintenance.repair().findings == []


def test_seeded_follows_past_the_split_are_written_into_buckets(redis_conn):
    made = seed_network(users=12, follows_per_user=6, posts_per_user=1, seed=3)
    uids = [account_services.uid_for_login(login) for login in made.logins]
    counts = [account_services.get_user(uid)["following"] for uid in uids]
    assert any(count > SPLIT for count in counts)
    for uid, count in zip(uids, counts, strict=True):
        held = stored_keys(redis_conn, uid)
        assert sum(held.values()) == count
        assert (keys.following_key(uid) in held) == (0 < count <= SPLIT)
    assert maintenance.repair().findings == []


def test_a_live_home_knows_everyone_a_split_user_follows(split_user):
    uid, others = split_user

    async def read():
        try:
            return await streaming.home_state(uid, 10)
        finally:
            await get_async_redis().aclose()

    assert sorted(asyncio.run(read()).followed) == sorted(others)


def test_every_key_of_a_following_set_is_in_one_slot():
    assert len({key_slot(key.encode()) for key in following.all_keys(12345)}) == 1
    assert following.bucket_key(7, 70) == keys.following_bucket_key(7, 70 % following.BUCKETS)


def test_followers_in_common_are_found_in_a_split_viewers_buckets(split_user, make_user):
    uid, others = split_user
    author = make_user()
    for other in (others[0], others[-1]):  # a bucket's and the base's
        graph.follow_user(other, author.uid)
    expected = sorted([others[0], others[-1]])
    assert sorted(u["id"] for u in selectors.followers_in_common(uid, author.uid)) == expected
    page = selectors.profile_page(author.login, uid)
    assert sorted(u["id"] for u in page.followers_in_common) == expected
    assert page.is_following is False


def test_the_repair_mends_both_ends_of_a_follow_kept_in_a_bucket(split_user, redis_conn):
    uid, others = split_user
    # A follow whose second step never ran: in the follower's bucket only...
    stranger = others[0]
    follower_sets.queue_remove(redis_conn, stranger, uid, "+inf")
    # ...and a counter gone wrong.
    redis_conn.hset(user_key(uid), "following", 99)
    found = {(f.check, f.problem) for f in maintenance.repair().findings}
    assert ("follows", f"misses follower {uid}, who follows them") in found
    assert ("counters", f"following 99 (the set has {SPLIT + 2})") in found
    maintenance.repair(fix=True)
    assert maintenance.repair().findings == []
    assert account_services.get_user(uid)["following"] == SPLIT + 2
    assert selectors.is_following(uid, stranger)


def test_a_newest_read_of_the_base_reads_again_across_buckets_once_split(make_user, redis_conn):
    uid = make_user().uid
    others = [make_user().uid for _ in range(SPLIT + 1)]
    for other in others:
        graph.follow_user(uid, other)
    assert following.kept_in(redis_conn, uid) == (0, SPLIT + 1)
    batch = Batch(redis_conn)
    read = following.queue_newest_of_base(batch, uid, 10)
    batch.execute()
    assert read.in_base.value == [] and read.bucketed.value
    assert sorted(following.newest(redis_conn, read)) == sorted(map(str, others))


def test_whether_candidates_follow_is_read_of_their_base_and_bucket_by_name(make_user, redis_conn):
    followed = make_user().uid
    bucketed, plain, stranger = (make_user().uid for _ in range(3))
    for _ in range(SPLIT):
        graph.follow_user(bucketed, make_user().uid)
    graph.follow_user(bucketed, followed)
    graph.follow_user(plain, followed)
    assert following.kept_in(redis_conn, bucketed) == (0, SPLIT + 1)
    assert following.kept_in(redis_conn, plain) == (1, 0)
    pipe = PackedPipeline(redis_conn)
    read = following.queue_follows_of(pipe, [bucketed, plain, stranger], followed)
    pipe.execute()
    assert [score is not None for score in following.scores_of(read)] == [True, True, False]
