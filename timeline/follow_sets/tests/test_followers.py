import pytest
from django.core.management import call_command
from django.test import override_settings

from accounts import services as account_services
from accounts.keys import user_key
from socialsite import jobs
from socialsite.redis import Batch, for_each_primary
from timeline import keys
from timeline.follow_sets import followers as follower_sets
from timeline.graph import selectors
from timeline.graph import services as graph
from timeline.ops import maintenance
from timeline.posting import services as posting
from timeline.safety import services as safety

# Small pieces, so a dozen followers make several.
pytestmark = pytest.mark.usefixtures("small_pieces")


def followed_long_ago(redis_conn, author: int, fans: list[int]) -> None:
    """`fans` followed `author` one second apart long ago (both sides and the counts, as
    seeding writes them), cut into pieces as follows one by one would have made them."""
    for when, fan in enumerate(fans, start=1):
        redis_conn.zadd(keys.following_key(fan), {author: when})
        redis_conn.hincrby(user_key(fan), "following", 1)
    redis_conn.zadd(keys.followers_key(author), {fan: when for when, fan in enumerate(fans, 1)})
    redis_conn.hincrby(user_key(author), "followers", len(fans))
    follower_sets.split(redis_conn, author)


def followed_by(redis_conn, make_user, count: int) -> tuple[int, list[int]]:
    """A user followed long ago by `count` others, in pieces of 3: (them, the others)."""
    author = make_user().uid
    fans = [make_user().uid for _ in range(count)]
    followed_long_ago(redis_conn, author, fans)
    return author, fans


@pytest.fixture
def author_with_pieces(make_user, redis_conn):
    """An author followed by 10 users long ago, then 2 now: (author, the 12, oldest first)."""
    author = make_user().uid
    old = [make_user().uid for _ in range(10)]
    followed_long_ago(redis_conn, author, old)
    new = [make_user().uid for _ in range(2)]
    for fan in new:
        assert graph.follow_user(fan, author) is True
    return author, old + new


def every_follower(uid: int, count: int = 4) -> list[list[int]]:
    pages, more, page = [], True, 1
    while more:
        people, more = selectors.followers_page(uid, page, count, viewer=uid)
        pages.append([person["id"] for person in people])
        page += 1
    return pages


def stored(redis_conn, uid: int) -> int:
    """Followers held in every piece."""
    return sum(redis_conn.zcard(key) for key in follower_sets.piece_keys(redis_conn, uid))


def piece_starts(redis_conn, uid: int) -> list[str]:
    return redis_conn.zrange(keys.follower_pieces_key(uid), 0, -1)


def test_followers_past_a_piece_are_kept_in_pieces_of_at_most_its_size(
    author_with_pieces, redis_conn
):
    author, fans = author_with_pieces
    # From the newest: [8, 9, 10] and [5, 6, 7] and [2, 3, 4] cut from the one key, [1]
    # left in it; the two follows of now went on past the full [8, 9, 10].
    assert len(piece_starts(redis_conn, author)) == 4
    sizes = [redis_conn.zcard(key) for key in follower_sets.piece_keys(redis_conn, author)]
    assert sizes == [1, 3, 3, 3, 2]
    assert stored(redis_conn, author) == 12
    assert account_services.get_user(author)["followers"] == 12


def test_followers_pages_run_newest_first_across_pieces(author_with_pieces):
    author, fans = author_with_pieces
    pages = every_follower(author)
    assert [len(page) for page in pages] == [4, 4, 4]
    flat = [uid for page in pages for uid in page]
    assert sorted(flat[:2]) == sorted(fans[10:])  # now, tied: in either order
    assert flat[2:] == fans[9::-1]


def test_an_unfollow_in_the_middle_takes_the_follower_out_of_its_piece(
    author_with_pieces, redis_conn
):
    author, fans = author_with_pieces
    leaving = fans[5]  # in the piece [5, 6, 7]
    assert graph.unfollow_user(leaving, author) is True
    assert graph.unfollow_user(leaving, author) is None
    assert leaving not in [uid for page in every_follower(author) for uid in page]
    assert stored(redis_conn, author) == 11
    assert account_services.get_user(author)["followers"] == 11
    assert maintenance.repair().findings == []


def test_a_piece_emptied_by_unfollows_leaves_the_index(author_with_pieces, redis_conn):
    author, fans = author_with_pieces
    for fan in fans[1:4]:  # the piece [2, 3, 4]
        graph.unfollow_user(fan, author)
    assert "2" not in piece_starts(redis_conn, author)
    assert [uid for page in every_follower(author) for uid in page][-2:] == [fans[4], fans[0]]


def test_following_again_someone_followed_long_ago_changes_nothing(author_with_pieces, redis_conn):
    author, fans = author_with_pieces
    assert graph.follow_user(fans[4], author) is None
    assert stored(redis_conn, author) == 12
    assert account_services.get_user(author)["followers"] == 12
    assert selectors.relationships(fans[4], [author]) == [(True, False)]
    assert selectors.relationships(author, [fans[4]]) == [(False, True)]


def test_a_block_removes_the_follower_from_its_piece(author_with_pieces, redis_conn):
    author, fans = author_with_pieces
    blocked = fans[2]  # in the piece [2, 3, 4]
    safety.block(author, blocked)
    assert blocked not in [uid for page in every_follower(author) for uid in page]
    assert redis_conn.zscore(keys.following_key(blocked), author) is None
    assert account_services.get_user(author)["followers"] == 11
    assert safety.remove_follower(author, fans[8]) is True
    assert account_services.get_user(author)["followers"] == 10
    assert maintenance.repair().findings == []


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=4)
def test_a_post_reaches_every_follower_across_pieces_once(author_with_pieces, redis_conn):
    author, fans = author_with_pieces
    status_id = posting.post_status(author, "to every piece")
    # The split, then chunks of about 4 cut at piece starts.
    assert jobs.work(burst=True) >= 3
    for fan in fans:
        assert redis_conn.lrange(keys.home_timeline_key(fan), 0, -1) == [str(status_id)]
    posting.delete_status(author, status_id)
    jobs.work(burst=True)
    for fan in fans:
        assert redis_conn.llen(keys.home_timeline_key(fan)) == 0


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=4)
def test_a_reply_reaches_only_those_who_follow_both_across_pieces(make_user, redis_conn):
    author, answered = make_user().uid, make_user().uid
    fans = [make_user().uid for _ in range(8)]
    followed_long_ago(redis_conn, author, fans)
    for fan in fans[::2]:
        graph.follow_user(fan, answered)
    original = posting.post_status(answered, "ask me")
    jobs.work(burst=True)
    reply = posting.post_status(author, "an answer", in_reply_to=original)
    jobs.work(burst=True)
    homes = {fan: redis_conn.lrange(keys.home_timeline_key(fan), 0, -1) for fan in fans}
    reached = [fan for fan in fans if str(reply) in homes[fan]]
    assert reached == fans[::2]


def test_followers_in_common_are_found_in_any_piece(author_with_pieces, make_user):
    author, fans = author_with_pieces
    viewer = make_user().uid
    for fan in (fans[0], fans[6]):
        graph.follow_user(viewer, fan)
    common = selectors.followers_in_common(viewer, author)
    assert sorted(user["id"] for user in common) == sorted([fans[0], fans[6]])
    assert sorted(
        u["id"]
        for u in selectors.profile_page(
            account_services.get_user(author)["login"], viewer
        ).followers_in_common
    ) == sorted([fans[0], fans[6]])


def test_old_big_follower_sets_are_cut_by_the_migration_once(make_user, redis_conn):
    author = make_user().uid
    fans = [make_user().uid for _ in range(10)]
    # As kept before pieces: one key.
    for when, fan in enumerate(fans, start=1):
        redis_conn.zadd(keys.following_key(fan), {author: when})
        redis_conn.hset(user_key(fan), "following", 1)
    redis_conn.zadd(keys.followers_key(author), {fan: when for when, fan in enumerate(fans, 1)})
    redis_conn.hset(user_key(author), "followers", 10)

    call_command("split_followers")
    assert piece_starts(redis_conn, author) == ["2", "5", "8"]
    assert follower_sets.split_every_big_set() == (0, 0)  # again: nothing to do
    assert [uid for page in every_follower(author) for uid in page] == fans[::-1]
    assert graph.unfollow_user(fans[6], author) is True
    assert stored(redis_conn, author) == 9
    assert maintenance.repair().findings == []


@pytest.mark.django_db
def test_a_deleted_account_leaves_no_piece_behind(author_with_pieces, redis_conn):
    author, fans = author_with_pieces
    account_services.close_account(author)
    call_command("worker", burst=True)
    left = [
        key
        for server in for_each_primary(redis_conn)
        for key in server.scan_iter(match=f"{keys.followers_key(author)}*")
    ]
    assert left == []
    assert all(redis_conn.zscore(keys.following_key(fan), author) is None for fan in fans)


def test_a_followers_page_before_the_first_is_refused(author_with_pieces):
    author, _ = author_with_pieces
    with pytest.raises(ValueError, match="start at 1"):
        selectors.followers_page(author, page=0, viewer=author)


def planned_walk(redis_conn, *walked) -> follower_sets.WalkRead:
    """follower_sets.queue_walk's read of `walked` (key, after, skip, below, count), run."""
    batch = Batch(redis_conn)
    read = follower_sets.queue_walk(batch, *walked)
    batch.execute()
    return read


def test_a_walk_planned_before_a_piece_changed_reads_again_in_one_script(
    author_with_pieces, redis_conn
):
    author, fans = author_with_pieces
    key = keys.followers_key(author)
    walked = (key, "-inf", 0, "+inf", 100)
    planned = planned_walk(redis_conn, *walked)
    graph.unfollow_user(fans[3], author)  # its piece is one shorter than planned
    members, cursor = follower_sets.walk(redis_conn, planned)
    assert members[:9] == [str(fan) for fan in fans[:10] if fan != fans[3]]
    assert sorted(members[9:]) == sorted(str(fan) for fan in fans[10:])
    assert cursor == []


def test_a_walk_stops_at_its_count_with_the_cursor_of_the_last(author_with_pieces, redis_conn):
    author, fans = author_with_pieces
    key = keys.followers_key(author)
    planned = planned_walk(redis_conn, key, 2, 0, "+inf", 5)  # from [2, 3, 4] on
    members, cursor = follower_sets.walk(redis_conn, planned)
    assert members == [str(fan) for fan in fans[1:6]]
    assert [float(cursor[0]), cursor[1]] == [6.0, 1]
    assert follower_sets.read_range(redis_conn, key, 2, 0, "+inf", 5) == (members, cursor)
