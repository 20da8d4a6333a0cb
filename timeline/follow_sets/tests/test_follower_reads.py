"""The stored layout of followers in pieces read back (follow_sets.followers): who among
many follows a user (in their slot), a follow into a full piece, and a fan-out job's walk
of them, planned and read."""

from dataclasses import replace

import pytest
from django.test import override_settings

from accounts import services as account_services
from socialsite.redis import Batch, PackedPipeline
from timeline import keys
from timeline.follow_sets import followers as follower_sets
from timeline.follow_sets import following
from timeline.graph import services as graph

from .test_followers import every_follower, followed_by, piece_starts

# Small pieces, so a few dozen followers make more pieces than followers_among.lua reads.
pytestmark = pytest.mark.usefixtures("small_pieces")


def test_who_follows_is_asked_in_the_followed_users_slot_across_a_few_pieces(
    make_user, redis_conn, strangers
):
    author, fans = followed_by(redis_conn, make_user, 12)  # the one key and 3 pieces
    assert 0 < len(piece_starts(redis_conn, author)) <= follower_sets.PIECES_READ
    few = [fans[0], strangers[0], fans[11], fans[5]]  # asked by ZMSCORE
    many = fans[::2] + strangers + fans[1::2]  # past ASKED_BY_ZMSCORE: all followers read
    assert len(few) <= follower_sets.ASKED_BY_ZMSCORE < len(many)
    assert follower_sets.queue_followers_among(redis_conn, few, author) == [1, 0, 1, 1]
    assert sorted(map(int, follower_sets.queue_followers_among(redis_conn, many, author))) == fans
    for asked in (few, many, [str(uid) for uid in many]):
        assert follower_sets.followers_among(redis_conn, asked, author) == [
            int(uid) in fans for uid in asked
        ]


def test_followers_in_more_pieces_than_read_are_asked_of_following_sets(
    make_user, redis_conn, strangers, round_trips
):
    author, fans = followed_by(redis_conn, make_user, 40)
    assert len(piece_starts(redis_conn, author)) > follower_sets.PIECES_READ
    asked = [fans[0], strangers[0], fans[20], fans[39], strangers[1]]
    assert follower_sets.queue_followers_among(redis_conn, asked, author) is None
    assert round_trips(lambda: follower_sets.followers_among(redis_conn, asked, author)) == 2
    assert follower_sets.followers_among(redis_conn, asked, author) == [
        True,
        False,
        True,
        True,
        False,
    ]


def test_followers_kept_in_one_key_past_a_piece_are_asked_of_following_sets(
    make_user, redis_conn, strangers
):
    author, fans = make_user().uid, [make_user().uid for _ in range(5)]
    for when, fan in enumerate(fans, start=1):  # as kept before pieces: one key
        redis_conn.zadd(keys.following_key(fan), {author: when})
    redis_conn.zadd(keys.followers_key(author), {fan: when for when, fan in enumerate(fans, 1)})
    asked = [*fans, *strangers]
    assert follower_sets.queue_followers_among(redis_conn, asked, author) is None
    assert follower_sets.followers_among(redis_conn, asked, author) == [True] * 5 + [False] * 6


def test_asking_about_no_one_reads_nothing(make_user, redis_conn, round_trips):
    author, _ = followed_by(redis_conn, make_user, 4)
    assert round_trips(lambda: follower_sets.followers_among(redis_conn, [], author)) == 0
    assert follower_sets.followers_among(redis_conn, [], author) == []


def test_a_follow_into_a_full_piece_splits_it_once(make_user, redis_conn):
    author, fans = followed_by(redis_conn, make_user, 3)  # the one key, full
    newcomer = make_user().uid
    assert graph.follow_user(newcomer, author) is True
    assert graph.follow_user(newcomer, author) is None
    assert sum(redis_conn.zcard(k) for k in follower_sets.piece_keys(redis_conn, author)) == 4
    assert account_services.get_user(author)["followers"] == 4
    assert [uid for page in every_follower(author) for uid in page] == [newcomer, *fans[::-1]]


def walk_of(redis_conn, key: str, *cursor) -> tuple[list, list]:
    """A walk of `key` from `cursor` (after, skip, below, count), planned and read."""
    batch = Batch(redis_conn)
    read = follower_sets.queue_walk(batch, key, *cursor)
    batch.execute()
    return follower_sets.walk(redis_conn, read)


@override_settings(FOLLOWERS_PIECE_SIZE=100)
def test_a_walk_of_a_set_never_cut_is_read_beside_its_plan(make_user, redis_conn, round_trips):
    author = make_user().uid
    key = keys.followers_key(author)
    redis_conn.zadd(key, {str(100 + i): 1 + i // 2 for i in range(10)})  # ties in pairs
    assert piece_starts(redis_conn, author) == []
    assert round_trips(lambda: walk_of(redis_conn, key, "-inf", 0, "+inf", 3)) == 1
    members, cursor = walk_of(redis_conn, key, "-inf", 0, "+inf", 3)
    assert members == ["100", "101", "102"] and [float(cursor[0]), cursor[1]] == [2.0, 1]
    members, cursor = walk_of(redis_conn, key, 2.0, 1, "+inf", 100)
    assert members == [str(100 + i) for i in range(3, 10)] and cursor == []


def test_a_walk_whose_set_was_cut_between_plan_and_read_reads_again_in_one_script(
    make_user, redis_conn
):
    author = make_user().uid
    key = keys.followers_key(author)
    redis_conn.zadd(key, {str(100 + i): 1 + i for i in range(8)})
    before, after = Batch(redis_conn), Batch(redis_conn)
    planned = follower_sets.queue_walk(before, key, 2.0, 0, "+inf", 10)
    with override_settings(FOLLOWERS_PIECE_SIZE=100):
        before.execute()
    follower_sets.split(redis_conn, author)  # into pieces of 3 before the read
    read = follower_sets.queue_walk(after, key, 2.0, 0, "+inf", 10)
    after.execute()
    assert len(read.in_key.value) == 1  # the followers key keeps [1, 2]
    # The plan made before the cut, with the followers key as read after it.
    members, cursor = follower_sets.walk(redis_conn, replace(planned, in_key=read.in_key))
    assert (members, cursor) == ([str(100 + i) for i in range(1, 8)], [])


def test_who_follows_is_read_by_name_in_the_slot_or_of_each_following_set(make_user, redis_conn):
    author = make_user().uid
    fans = [make_user().uid for _ in range(4)]
    follower_sets.add_in_bulk(redis_conn, author, {fan: 1 + i for i, fan in enumerate(fans)})
    for fan in fans:
        following.queue_add(redis_conn, fan, {author: 1 + fans.index(fan)})
    assert follower_sets.piece_starts(redis_conn, author) != []
    asked = [fans[0], make_user().uid, fans[3]]
    for followers, in_slot in ((len(fans), True), (10**9, False)):
        pipe = PackedPipeline(redis_conn)
        read = follower_sets.queue_who_follow(pipe, asked, author, followers)
        pipe.execute()
        assert (read.in_slot is not None, read.of_each is not None) == (in_slot, not in_slot)
        assert follower_sets.who_follow(redis_conn, read) == [True, False, True]
    empty = follower_sets.queue_who_follow(PackedPipeline(redis_conn), [], author, 4)
    assert follower_sets.who_follow(redis_conn, empty) == []
