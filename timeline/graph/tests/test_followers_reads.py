"""Reads of a user's followers kept in pieces (follow_sets.followers), as pages, people
in common and fan-out see them: the same whatever the pieces (the layout's own reads are
tested in timeline/follow_sets/tests)."""

import pytest
from django.test import override_settings

from accounts import services as account_services
from socialsite import jobs
from timeline import keys
from timeline.feeds import fanout
from timeline.follow_sets import followers as follower_sets
from timeline.follow_sets.tests.test_followers import (
    every_follower,
    followed_by,
    followed_long_ago,
    piece_starts,
)
from timeline.graph import selectors
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.services import create_status

# Small pieces, so a few dozen followers make more pieces than followers_among.lua reads.
pytestmark = pytest.mark.usefixtures("small_pieces")


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
    assert followers <= (follower_sets.PIECES_READ + 1) * 3
    assert len(piece_starts(redis_conn, author)) > follower_sets.PIECES_READ
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
