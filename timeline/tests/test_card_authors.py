"""Status cards show their author's display name and avatar without a round trip per card."""

from accounts import authors
from accounts.keys import user_key
from accounts.services import update_name
from timeline.feeds import selectors as feeds
from timeline.posting import services as posting
from timeline.statuses.cards import status_cards


def test_a_page_of_cards_reads_its_authors_in_one_round_trip_then_none(
    make_user,
    round_trips,  # noqa: F811
):
    writers = [make_user() for _ in range(5)]
    for writer in writers:
        posting.post_status(writer.uid, f"by {writer.login}")
    page = feeds.global_timeline_page()
    authors.forget_all()
    assert round_trips(lambda: status_cards(page.statuses, None)) == 1
    assert round_trips(lambda: status_cards(page.statuses, None)) == 0
    assert all(s["author_name"] == s["login"].title() for s in page.statuses)


def test_a_renamed_author_shows_at_once_in_the_process_that_renamed(alice):
    posting.post_status(alice.uid, "hello")
    page = feeds.global_timeline_page()
    assert "Alice" in status_cards(page.statuses, None)
    update_name(alice.uid, "Queen of Hearts")
    page = feeds.global_timeline_page()
    assert "Queen of Hearts" in status_cards(page.statuses, None)


def test_a_kept_author_of_another_login_under_the_same_uid_is_read_again(alice, redis_conn):
    posting.post_status(alice.uid, "hello")
    authors.authors({alice.uid: "alice"})
    redis_conn.hset(user_key(alice.uid), mapping={"login": "alicia", "name": "Alicia"})
    assert authors.authors({alice.uid: "alicia"})[alice.uid]["name"] == "Alicia"
