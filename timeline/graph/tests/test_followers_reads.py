"""Reads of a user's followers in pieces (graph.pieces): who among many follows them (in
their slot), their pages however deep, and a fan-out job's walk of them."""

import pytest
from django.test import override_settings

from accounts import services as account_services
from socialsite import jobs
from timeline import keys
from timeline.feeds import fanout
from timeline.graph import pieces, selectors
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.services import create_status

from .test_pieces import every_follower, followed_long_ago, piece_starts

# Small pieces, so a few dozen followers make more pieces than followers_among.lua reads.
pytestmark = pytest.mark.usefixtures("small_pieces")


@pytest.fixture
def small_pieces():
    with override_settings(FOLLOWERS_PIECE_SIZE=3):
        yield


@pytest.fixture
def strangers(make_user):
    """Users who follow no one."""
    return [make_user().uid for _ in range(6)]


def followed_by(redis_conn, make_user, count: int) -> tuple[int, list[int]]:
    """A user followed long ago by `count` others, in pieces of 3: (them, the others)."""
    author = make_user().uid
    fans = [make_user().uid for _ in range(count)]
    followed_long_ago(redis_conn, author, fans)
    return author, fans


def test_who_follows_is_asked_in_the_followed_users_slot_across_a_few_pieces(
    make_user, redis_conn, strangers
):
    author, fans = followed_by(redis_conn, make_user, 12)  # the one key and 3 pieces
    assert 0 < len(piece_starts(redis_conn, author)) <= pieces.PIECES_READ
    few = [fans[0], strangers[0], fans[11], fans[5]]  # asked by ZMSCORE
    many = fans[::2] + strangers + fans[1::2]  # past ASKED_BY_ZMSCORE: all followers read
    assert len(few) <= pieces.ASKED_BY_ZMSCORE < len(many)
    assert pieces.queue_followers_among(redis_conn, few, author) == [1, 0, 1, 1]
    assert sorted(map(int, pieces.queue_followers_among(redis_conn, many, author))) == fans
    for asked in (few, many, [str(uid) for uid in many]):
        assert pieces.followers_among(redis_conn, asked, author) == [
            int(uid) in fans for uid in asked
        ]


def test_followers_in_more_pieces_than_read_are_asked_of_following_sets(
    make_user, redis_conn, strangers, round_trips
):
    author, fans = followed_by(redis_conn, make_user, 40)
    assert len(piece_starts(redis_conn, author)) > pieces.PIECES_READ
    asked = [fans[0], strangers[0], fans[20], fans[39], strangers[1]]
    assert pieces.queue_followers_among(redis_conn, asked, author) is None
    assert round_trips(lambda: pieces.followers_among(redis_conn, asked, author)) == 2
    assert pieces.followers_among(redis_conn, asked, author) == [True, False, True, True, False]


def test_followers_kept_in_one_key_past_a_piece_are_asked_of_following_sets(
    make_user, redis_conn, strangers
):
    author, fans = make_user().uid, [make_user().uid for _ in range(5)]
    for when, fan in enumerate(fans, start=1):  # as kept before pieces: one key
        redis_conn.zadd(keys.following_key(fan), {author: when})
    redis_conn.zadd(keys.followers_key(author), {fan: when for when, fan in enumerate(fans, 1)})
    asked = [*fans, *strangers]
    assert pieces.queue_followers_among(redis_conn, asked, author) is None
    assert pieces.followers_among(redis_conn, asked, author) == [True] * 5 + [False] * 6


def test_asking_about_no_one_reads_nothing(make_user, redis_conn, round_trips):
    author, _ = followed_by(redis_conn, make_user, 4)
    assert round_trips(lambda: pieces.followers_among(redis_conn, [], author)) == 0
    assert pieces.followers_among(redis_conn, [], author) == []


def common_ids(login: str, viewer: int) -> list[int]:
    return sorted(u["id"] for u in selectors.profile_page(login, viewer).followers_in_common)


@pytest.mark.parametrize("followers", [12, 40])
def test_followers_in_common_are_the_same_whether_asked_in_the_slot_or_not(
    make_user, redis_conn, strangers, round_trips, followers
):
    author, fans = followed_by(redis_conn, make_user, followers)
    viewer = make_user().uid
    followed = [fans[0], fans[7], fans[-1], *strangers]
    for uid in followed:
        graph.follow_user(viewer, uid)
    login = account_services.get_user(author)["login"]
    expected = sorted([fans[0], fans[7], fans[-1]])
    assert common_ids(login, viewer) == expected
    assert sorted(u["id"] for u in selectors.followers_in_common(viewer, author)) == expected
    # Either way the same round trips: the login remembered, the page, the profiles in
    # common (whom to ask is decided by the followers count read with the profile).
    assert round_trips(lambda: selectors.profile_page(login, viewer)) == 3


def test_followers_in_common_still_found_when_few_followers_are_left_in_many_pieces(
    make_user, redis_conn
):
    author, fans = followed_by(redis_conn, make_user, 40)
    for fan in fans[1::3]:  # every piece keeps some: the count says few, the pieces many
        graph.unfollow_user(fan, author)
    followers = account_services.get_user(author)["followers"]
    assert followers <= (pieces.PIECES_READ + 1) * 3
    assert len(piece_starts(redis_conn, author)) > pieces.PIECES_READ
    viewer = make_user().uid
    for fan in (fans[0], fans[1], fans[30]):
        graph.follow_user(viewer, fan)
    login = account_services.get_user(author)["login"]
    assert common_ids(login, viewer) == sorted([fans[0], fans[30]])


@pytest.mark.parametrize("answered_followers", [4, 40])
@override_settings(POSTS_PER_PASS=10, FAN_OUT_JOB_SIZE=10)
def test_a_reply_reaches_those_who_follow_the_answered_user_in_any_piece(
    make_user, redis_conn, round_trips, answered_followers
):
    answered, theirs = followed_by(redis_conn, make_user, answered_followers)
    author = make_user().uid
    # The author's 24 followers: every other one follows the answered user too.
    fans = [make_user().uid for _ in range(24)]
    followed_long_ago(redis_conn, author, fans)
    both = fans[::2]
    for fan in both:
        graph.follow_user(fan, answered)
    original = posting.post_status(answered, "ask me")
    jobs.work(burst=True)
    replies = []
    # As test_round_trips' reply: where to ask is told by the answered user's count, read
    # with the post's first reads, so many pieces cost no round trip more.
    assert (
        round_trips(
            lambda: replies.append(posting.post_status(author, "an answer", in_reply_to=original))
        )
        == 5
    )
    reply = replies[0]
    jobs.work(burst=True)
    reached = [f for f in fans if str(reply) in redis_conn.lrange(keys.home_timeline_key(f), 0, -1)]
    assert reached == both
    status = {"uid": author, "in_reply_to_uid": answered}
    assert fanout.reply_audience(redis_conn, status, [str(f) for f in fans]) == [
        str(f) for f in both
    ]
    # A job of it: the status's check, where the answered user's followers are (their
    # count), the plan and reads; the pieces' reads; who follows them; the dropped
    # homes; the deliveries. As many wherever the answered user's followers are.
    job = {**chunk_job(author, reply), "in_reply_to_uid": answered}
    assert round_trips(lambda: fanout.fan_out_batch(job)) == 5


def test_followers_pages_deep_in_pieces_come_newest_first_once(make_user, redis_conn):
    author, fans = followed_by(redis_conn, make_user, 40)
    assert len(piece_starts(redis_conn, author)) >= 12
    for count in (1, 4, 7):
        pages = every_follower(author, count)
        assert [uid for page in pages for uid in page] == fans[::-1]
    # Pieces thinned by unfollows hold fewer than their size: the index is read further.
    gone = set(fans[::2])
    for fan in gone:
        graph.unfollow_user(fan, author)
    left = [fan for fan in fans[::-1] if fan not in gone]
    for count in (2, 5):
        assert [uid for page in every_follower(author, count) for uid in page] == left
    people, more = selectors.followers_page(author, page=20, count=5, viewer=author)
    assert (people, more) == ([], False)


def test_a_follow_into_a_full_piece_splits_it_once(make_user, redis_conn):
    author, fans = followed_by(redis_conn, make_user, 3)  # the one key, full
    newcomer = make_user().uid
    assert graph.follow_user(newcomer, author) is True
    assert graph.follow_user(newcomer, author) is None
    assert sum(redis_conn.zcard(k) for k in pieces.piece_keys(redis_conn, author)) == 4
    assert account_services.get_user(author)["followers"] == 4
    assert [uid for page in every_follower(author) for uid in page] == [newcomer, *fans[::-1]]


def walk_of(redis_conn, key: str, *cursor) -> tuple[list, list]:
    """A walk of `key` from `cursor` (after, skip, below, count), planned and read."""
    pipe = redis_conn.pipeline(transaction=False)
    pieces.queue_walk(pipe, key, *cursor)
    return pieces.walk(redis_conn, key, pipe.execute(), *cursor)


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
    with override_settings(FOLLOWERS_PIECE_SIZE=100):
        plan = pieces.scripts.run(redis_conn, "followers_plan", [key], [2.0, 0, "+inf", 10])
    pieces.split(redis_conn, author)  # into pieces of 3 before the read
    read = redis_conn.zrangebyscore(key, 2.0, "+inf", start=0, num=10)
    assert len(read) == 1  # the followers key keeps [1, 2]
    members, cursor = pieces.walk(redis_conn, key, [plan, read], 2.0, 0, "+inf", 10)
    assert (members, cursor) == ([str(100 + i) for i in range(1, 8)], [])


def chunk_job(author: int, status_id: int) -> dict:
    """The args of a fan-out job of the whole of `author`'s followers, not split."""
    status = {"id": status_id, "uid": author, "posted": 1.0}
    return {**fanout.fan_out_job(status)[1], "split": False}


@pytest.mark.parametrize("fans_count", [3, 14])
@override_settings(FAN_OUT_JOB_SIZE=100)
def test_a_fan_out_job_of_a_set_never_cut_saves_the_round_trip_of_its_plan(
    make_user, redis_conn, round_trips, fans_count
):
    author = make_user().uid
    fans = [make_user().uid for _ in range(fans_count)]
    followed_long_ago(redis_conn, author, fans)
    cut = bool(piece_starts(redis_conn, author))
    assert cut == (fans_count > 3)
    status_id = create_status(author, "to every follower")
    job = chunk_job(author, status_id)
    # The status's check, the plan and the followers key's read; the pieces' reads if
    # cut; the dropped homes; the deliveries.
    assert round_trips(lambda: fanout.fan_out_batch(job)) == (4 if cut else 3)
    for fan in fans:
        assert redis_conn.lrange(keys.home_timeline_key(fan), 0, -1) == [str(status_id)]
