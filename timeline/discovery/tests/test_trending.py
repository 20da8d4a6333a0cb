"""Explore's counting (discovery.trending): engagement per status and links per author,
from the events the services publish, fed to the activity listener's entry point."""

import json
import threading
import time

import pytest

from socialsite.testing.waits import wait_for
from timeline.discovery import activity, trending
from timeline.groups import services as groups
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.safety import services as safety

HOUR = 3600


def count(published: list[dict], **changes) -> None:
    """Feeds what was published to the listener, as a worker receives it."""
    for event in published:
        activity.record_event(json.dumps({**event, **changes}))


def scores() -> dict[str, float]:
    return dict(trending.ranked_statuses(50))


def pytest_approx(expected: dict[str, float]):
    """Scores counted this hour: weighted by an age of a few minutes at most."""
    return pytest.approx(expected, rel=0.05)


def test_likes_reposts_and_replies_by_others_are_engagement(make_user, events):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    liked = posting.post_status(ann.uid, "like me")
    answered = posting.post_status(ann.uid, "answer me")
    shared = posting.post_status(ann.uid, "share me")
    reactions.like(ben.uid, liked)
    reactions.like(cy.uid, liked)
    posting.post_status(ben.uid, "an answer", in_reply_to=answered)
    reactions.repost(cy.uid, shared)
    count(events())
    assert scores() == pytest_approx(
        {str(liked): 2 * trending.LIKE, str(answered): trending.REPLY, str(shared): trending.REPOST}
    )


def test_an_authors_own_likes_replies_and_reposts_add_nothing(make_user, events):
    ann = make_user("ann")
    status_id = posting.post_status(ann.uid, "mine")
    reactions.like(ann.uid, status_id)
    posting.post_status(ann.uid, "and a thread", in_reply_to=status_id)
    count(events())
    assert scores() == {}


def test_unlikes_and_deletions_take_their_engagement_back(make_user, events):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    status_id = posting.post_status(ann.uid, "fleeting")
    reactions.like(ben.uid, status_id)
    reply = posting.post_status(cy.uid, "hm", in_reply_to=status_id)
    count(events())
    assert scores()[str(status_id)] > 0
    reactions.unlike(ben.uid, status_id)
    posting.delete_status(cy.uid, reply)
    count(events())
    assert scores() == {}


def test_an_event_heard_by_every_worker_counts_once(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    status_id = posting.post_status(ann.uid, "once")
    reactions.like(ben.uid, status_id)
    published = events()
    count(published)
    count(published)
    assert scores() == pytest_approx({str(status_id): trending.LIKE})


def test_recent_engagement_outranks_more_engagement_long_ago(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    likers = [make_user(f"liker{i}") for i in range(4)]
    early, fast = posting.post_status(ann.uid, "early"), posting.post_status(ben.uid, "fast")
    events()
    for liker in likers:
        reactions.like(liker.uid, early)
    count(events(), created=time.time() - 10 * HOUR)
    for liker in likers[:2]:
        reactions.like(liker.uid, fast)
    count(events())
    ranked = trending.ranked_statuses(10)
    assert [status_id for status_id, _ in ranked] == [str(fast), str(early)]


def test_engagement_older_than_a_day_is_forgotten(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    status_id = posting.post_status(ann.uid, "yesterday's news")
    events()
    reactions.like(ben.uid, status_id)
    count(events(), created=time.time() - 25 * HOUR)
    assert scores() == {}


def links() -> dict[str, float]:
    return {link.url: link.score for link in trending.ranked_links(50)}


def test_a_link_counts_once_per_author(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    posting.post_status(ann.uid, "read https://example.com/a and https://example.org/")
    posting.post_status(ann.uid, "really, read https://Example.COM/a#top")
    posting.post_status(ben.uid, "https://example.com/a is good")
    count(events())
    assert links() == pytest_approx({"https://example.com/a": 2, "https://example.org/": 1})
    history = {link.url: link.history[0] for link in trending.ranked_links(50)}
    assert (history["https://example.com/a"].uses, history["https://example.com/a"].accounts) == (
        3,
        2,
    )
    assert len(trending.ranked_links(1)[0].history) == trending.HISTORY_DAYS


def test_links_of_private_unlisted_and_group_only_statuses_and_reposts_are_not_counted(
    make_user, events
):
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")
    safety.set_private(ann.uid, True)
    posting.post_status(ann.uid, "secret https://example.com/private")
    posting.post_status(ben.uid, "quiet https://example.com/unlisted", visibility="unlisted")
    club = groups.create_group(ben.uid, "club", "Club", kind="private")
    posting.post_status(ben.uid, "members only https://example.com/group", group=club)
    shared = posting.post_status(ben.uid, "https://example.com/shared")
    reactions.repost(cy.uid, shared)
    count(events())
    assert links() == pytest_approx({"https://example.com/shared": 1})


def test_a_private_groups_tags_and_links_never_trend_a_public_groups_do(make_user, events):
    ann = make_user("ann")
    club = groups.create_group(ann.uid, "club", "Club", kind="private")
    square = groups.create_group(ann.uid, "square", "Square")
    posting.post_status(ann.uid, "#hidden https://example.com/hidden", group=club)
    posting.post_status(ann.uid, "#shown https://example.com/shown", group=square)
    count(events())
    assert activity.trending()["tags"] == [("shown", 1)]
    assert list(links()) == ["https://example.com/shown"]


def test_the_buckets_expire_on_their_own(redis_conn, make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    status_id = posting.post_status(ann.uid, "https://example.com/")
    reactions.like(ben.uid, status_id)
    count(events())
    found = list(redis_conn.scan_iter("trends:*"))
    assert len(found) == 7 and all(redis_conn.ttl(key) != -1 for key in found)


def test_the_workers_listener_counts_likes_and_links_as_they_happen(make_user):
    ann, ben = make_user("ann"), make_user("ben")
    stop = threading.Event()
    listener = threading.Thread(target=activity.listen, args=(stop.is_set,))
    listener.start()
    try:
        # The subscription starts asynchronously: like until one is counted.
        def counted() -> bool:
            status_id = posting.post_status(ann.uid, "https://example.com/live")
            reactions.like(ben.uid, status_id)
            return scores() != {}

        wait_for(counted)
    finally:
        stop.set()
        listener.join()
    assert list(links()) == ["https://example.com/live"]
