import pytest

from socialsite import jobs
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.keeps import selectors, services
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety
from timeline.statuses.selectors import AlreadyDone, StatusGone
from timeline.tests.pages import ids


def test_a_bookmark_is_on_the_bookmarkers_page_latest_first(make_user):
    author, reader = make_user().uid, make_user().uid
    first = posting.post_status(author, "first")
    second = posting.post_status(author, "second")
    services.bookmark(reader, second)
    services.bookmark(reader, first)
    assert ids(selectors.bookmarks_page(reader).statuses) == [first, second]
    assert selectors.bookmarks_page(author).statuses == []


def test_bookmarked_statuses_are_marked_for_their_bookmarker_alone(make_user):
    author, reader = make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    status_id = posting.post_status(author, "keep me")
    services.bookmark(reader, status_id)
    (mine,) = feeds.timeline_page(reader).statuses
    assert mine["bookmarked"] is True
    (theirs,) = feeds.timeline_page(author).statuses
    assert theirs["bookmarked"] is False


def test_bookmarking_twice_is_already_done_and_unbookmarking_takes_it_off(make_user):
    author, reader = make_user().uid, make_user().uid
    status_id = posting.post_status(author, "once")
    services.bookmark(reader, status_id)
    with pytest.raises(AlreadyDone):
        services.bookmark(reader, status_id)
    services.unbookmark(reader, status_id)
    assert selectors.bookmarks_page(reader).statuses == []
    with pytest.raises(AlreadyDone):
        services.unbookmark(reader, status_id)


def test_bookmarking_a_repost_bookmarks_its_original(make_user):
    author, reposter, reader = make_user().uid, make_user().uid, make_user().uid
    original = posting.post_status(author, "shared")
    repost = reactions.repost(reposter, original)
    services.bookmark(reader, repost)
    assert selectors.bookmarked_ids(reader) == [original]


def test_a_status_gone_or_hidden_cant_be_bookmarked(make_user):
    author, reader = make_user().uid, make_user().uid
    status_id = posting.post_status(author, "soon gone")
    safety.block(author, reader)
    with pytest.raises(StatusGone):
        services.bookmark(reader, status_id)
    posting.delete_status(author, status_id)
    with pytest.raises(StatusGone):
        services.bookmark(make_user().uid, status_id)
    assert selectors.bookmarked_ids(reader) == []


def test_deleting_a_status_takes_it_off_every_bookmark_by_a_job(make_user, redis_conn):
    author = make_user().uid
    readers = [make_user().uid for _ in range(3)]
    status_id = posting.post_status(author, "bookmarked by many")
    for reader in readers:
        services.bookmark(reader, status_id)
    posting.delete_status(author, status_id)
    jobs.work(burst=True)
    for reader in readers:
        assert selectors.bookmarked_ids(reader) == []
        assert not redis_conn.exists(keys.bookmarked_key(reader))
    assert not redis_conn.exists(keys.bookmarkers_key(status_id))


def test_a_deleted_accounts_bookmarks_leave_the_statuses_sides(make_user, redis_conn):
    from accounts.services import close_account

    author, reader = make_user().uid, make_user("leaver")
    status_id = posting.post_status(author, "kept")
    services.bookmark(reader.uid, status_id)
    close_account(reader.uid)
    jobs.work(burst=True)
    assert not redis_conn.exists(keys.bookmarkers_key(status_id))
    assert not redis_conn.exists(keys.bookmarks_key(reader.uid))
    assert not redis_conn.exists(keys.bookmarked_key(reader.uid))


def test_a_bookmark_can_be_taken_back_whoever_may_see_the_status_now(make_user):
    author, reader = make_user().uid, make_user().uid
    graph.follow_user(reader, author)
    safety.set_private(author, True)
    status_id = posting.post_status(author, "followers only")
    services.bookmark(reader, status_id)
    safety.block(author, reader)
    services.unbookmark(reader, status_id)
    assert selectors.bookmarked_ids(reader) == []


def test_the_bookmarks_page_is_two_round_trips(make_user, round_trips):
    author, reader = make_user().uid, make_user().uid
    for n in range(40):
        services.bookmark(reader, posting.post_status(author, f"s{n}"))
    selectors.bookmarks_page(reader)
    assert round_trips(lambda: selectors.bookmarks_page(reader)) == 2
