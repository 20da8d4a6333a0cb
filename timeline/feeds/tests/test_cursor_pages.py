"""Pages of a timeline between status ids (Mastodon's max_id, since_id, min_id), read
from the timeline's own scores."""

import time

from timeline.feeds.selectors import Cursor, cursor_page
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status
from timeline.reactions.services import like


def ids(page) -> list[int]:
    return [status["id"] for status in page.statuses]


def test_pages_run_older_than_max_id_and_say_whether_more_follow(alice):
    posted = [post_status(alice.uid, f"status {n}") for n in range(5)]
    first = cursor_page("profile", alice.uid, Cursor(), 2)
    assert ids(first) == posted[:2:-1] and first.has_older
    second = cursor_page("profile", alice.uid, Cursor(max_id=posted[3]), 2)
    assert ids(second) == [posted[2], posted[1]] and second.has_older
    last = cursor_page("profile", alice.uid, Cursor(max_id=posted[1]), 2)
    assert ids(last) == [posted[0]] and not last.has_older


def test_since_id_gives_the_newest_and_min_id_the_oldest_newer_ones(alice):
    posted = [post_status(alice.uid, f"status {n}") for n in range(5)]
    assert ids(cursor_page("profile", alice.uid, Cursor(since_id=posted[0]), 2)) == [
        posted[4],
        posted[3],
    ]
    assert ids(cursor_page("profile", alice.uid, Cursor(min_id=posted[0]), 2)) == [
        posted[2],
        posted[1],
    ]
    between = Cursor(max_id=posted[4], since_id=posted[1])
    assert ids(cursor_page("profile", alice.uid, between, 10)) == [posted[3], posted[2]]


def test_a_deleted_bound_still_bounds_while_the_timeline_holds_it(alice, bob):
    follow_user(bob.uid, alice.uid)
    posted = [post_status(alice.uid, f"status {n}") for n in range(3)]
    delete_status(alice.uid, posted[1])
    # Deleted, but still in bob's home until the worker's retraction: its score bounds.
    page = cursor_page("home", bob.uid, Cursor(max_id=posted[1]), 10)
    assert ids(page) == [posted[0]]
    # Gone everywhere: nothing to bound by, so an empty page.
    assert ids(cursor_page("profile", alice.uid, Cursor(max_id=posted[1]), 10)) == []


def test_the_likes_timeline_pages_by_when_statuses_were_liked(alice, bob):
    older, newer = post_status(bob.uid, "older"), post_status(bob.uid, "newer")
    like(alice.uid, newer)
    time.sleep(0.01)
    like(alice.uid, older)
    page = cursor_page("likes", alice.uid, Cursor(max_id=older), 10, viewer=alice.uid)
    assert ids(page) == [newer]
    assert page.statuses[0]["liked"] is True
