import pytest

from socialsite import jobs
from timeline import keys
from timeline.conversations import selectors as conversations
from timeline.data_migrations import migrate_data
from timeline.feeds import selectors as feeds
from timeline.feeds.selectors import Cursor, cursor_page
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.search import selectors as search
from timeline.search import services as search_services
from timeline.statuses import layout
from timeline.statuses.scores import POSTED, microseconds
from timeline.statuses.selectors import get_status
from timeline.statuses.services import create_status


def as_stored_before(redis_conn, status_id: int) -> None:
    """Rewrites a status's hash as statuses were stored before statuses.layout: an `id`
    field, and `posted` as a float's text instead of microseconds."""
    key = keys.status_key(status_id)
    posted = get_status(status_id)["posted"]
    redis_conn.hdel(key, layout.POSTED_FIELD)
    redis_conn.hset(key, mapping={"id": status_id, "posted": repr(posted)})


def upgraded(redis_conn) -> None:
    """Runs the data migrations over a store written before versions (every one)."""
    redis_conn.delete(keys.DATA_VERSION)
    assert migrate_data()


def test_a_status_hash_holds_no_id_and_its_time_in_whole_microseconds(make_user, redis_conn):
    author = make_user().uid
    status_id = posting.post_status(author, "hello there", location="48.85,2.35")
    stored = redis_conn.hgetall(keys.status_key(status_id))
    assert "id" not in stored and "posted" not in stored
    assert stored[layout.POSTED_FIELD].isdigit()
    status = get_status(status_id)
    assert status["id"] == status_id and status["uid"] == author
    assert status["posted"] == int(stored[layout.POSTED_FIELD]) / 1_000_000
    assert status["location"] == "48.85,2.35" and status["message"] == "hello there"
    # Its timelines are scored from the very time it reads back.
    assert redis_conn.zscore(keys.profile_timeline_key(author), status_id) == status["posted"]
    assert redis_conn.lrange(keys.home_timeline_key(author), 0, -1) == [str(status_id)]


def test_a_status_as_stored_before_reads_the_same_everywhere_once_upgraded(make_user, redis_conn):
    me, author = make_user().uid, make_user().uid
    graph.follow_user(me, author)
    status_id = posting.post_status(author, "stored the old way")
    expected = get_status(status_id)
    as_stored_before(redis_conn, status_id)
    upgraded(redis_conn)

    assert get_status(status_id) == expected
    (shown,) = feeds.get_status_messages(me)
    assert (shown["id"], shown["posted"]) == (status_id, expected["posted"])
    assert conversations.conversation(status_id, me).status["posted"] == expected["posted"]
    assert reactions.like(me, status_id) == 1
    assert get_status(status_id)["likes"] == 1


def test_a_cursor_bound_by_a_status_as_stored_before_pages_from_its_time_once_upgraded(
    make_user, redis_conn
):
    author, other = make_user().uid, make_user().uid
    older = posting.post_status(author, "older")
    bound = posting.post_status(other, "not in the author's profile")
    newer = posting.post_status(author, "newer")
    as_stored_before(redis_conn, bound)
    upgraded(redis_conn)

    before = cursor_page("profile", author, Cursor(max_id=bound), 10)
    after = cursor_page("profile", author, Cursor(since_id=bound), 10)
    assert [s["id"] for s in before.statuses] == [older]
    assert [s["id"] for s in after.statuses] == [newer]
    assert POSTED.score(get_status(bound)["posted"]) < POSTED.score(get_status(newer)["posted"])


def test_deleting_and_reindexing_a_status_as_stored_before_once_upgraded(make_user, redis_conn):
    author = make_user().uid
    kept, deleted = (posting.post_status(author, f"zebra number {n}") for n in range(2))
    for status_id in (kept, deleted):
        as_stored_before(redis_conn, status_id)
    upgraded(redis_conn)
    assert posting.delete_status(author, deleted) is True
    jobs.work(burst=True)
    assert get_status(deleted) is None
    for name in redis_conn.scan_iter(match=keys.search_ids_key("*", "*")):
        redis_conn.delete(name)
    assert search_services.reindex()["statuses"] == 1
    assert [s["id"] for s in search.search_statuses("zebra").statuses] == [kept]


def test_extra_data_named_as_the_stored_time_is_refused_and_stores_nothing(make_user, redis_conn):
    author = make_user().uid
    with pytest.raises(ValueError, match="can't"):
        posting.post_status(author, "at my own time", **{layout.POSTED_FIELD: "1"})
    with pytest.raises(ValueError, match="can't"):
        create_status(author, "at my own time", **{layout.POSTED_FIELD: "1"})
    assert redis_conn.get(keys.STATUS_ID_COUNTER) is None
    assert not redis_conn.exists(keys.profile_timeline_key(author))


def test_a_status_in_the_new_layout_takes_fewer_bytes(make_user, redis_conn):
    status_id = posting.post_status(make_user().uid, "a status of an ordinary length, say")
    key = keys.status_key(status_id)
    # A time whose text is as long as time.time()'s usually is (17 characters): the old
    # layout's cost depends on it, and a post's own time may print shorter.
    redis_conn.hset(key, mapping=layout.posted_field(1_764_000_000.123457))
    new = redis_conn.memory_usage(key, samples=0)
    as_stored_before(redis_conn, status_id)
    old = redis_conn.memory_usage(key, samples=0)
    # The id's field and a 1-digit id (~5 B), "posted" and 17 characters against "t" and
    # an integer (~13 B); more for a real site's longer ids.
    assert old - new >= 15, (old, new)


@pytest.mark.parametrize("posted", [1795667500.5741959, 0.0000004, 1.0, 1795667500.0000005])
def test_an_exact_posted_time_reads_back_and_scores_unchanged(posted):
    exact = layout.exact_posted(posted)
    stored = layout.posted_field(exact)[layout.POSTED_FIELD]
    assert layout.read_posted(str(stored)) == exact
    assert layout.exact_posted(exact) == exact
    assert microseconds(exact) == microseconds(posted)


def test_a_posted_time_is_read_from_whole_microseconds_and_is_none_when_gone():
    # The old field's seconds in text are rewritten by data migration 0007
    # (timeline/data_migrations/tests/test_upgrades.py).
    assert layout.read_posted("1795667500574196") == 1795667500.574196
    assert layout.read_posted(None) is None
