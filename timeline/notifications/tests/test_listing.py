"""The client API's reads of notifications by id (notifications.listing): filters and
pages of groups that read on across chunks, both ways, and the grouping they share with
the notifications page."""

import pytest

from timeline.graph import services as graph
from timeline.notifications import listing, selectors
from timeline.posting import services as posting
from timeline.reactions import services as reactions


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(listing, "CHUNK", 2)


@pytest.fixture
def mixed(alice, make_user):
    """alice's notifications, oldest first: 3 likes of one status, a follow, 2 likes of
    another, a follow."""
    fans = [make_user(f"fan{i}") for i in range(3)]
    first = posting.post_status(alice.uid, "first")
    second = posting.post_status(alice.uid, "second")
    for fan in fans:
        reactions.like(fan.uid, first)
    graph.follow_user(fans[0].uid, alice.uid)
    reactions.like(fans[0].uid, second)
    reactions.like(fans[1].uid, second)
    graph.follow_user(fans[1].uid, alice.uid)
    return first, second


def test_a_filter_reads_on_across_chunks_both_ways(alice, mixed, small_chunks):
    follows = listing.page_by_id(alice.uid, limit=5, kinds={"follow"})
    assert [e.kind for e in follows] == ["follow", "follow"]
    everything = listing.page_by_id(alice.uid, limit=10)
    assert len(everything) == 7 and [e.id for e in everything] == sorted(
        (e.id for e in everything), reverse=True
    )
    # Right after the oldest, oldest first read, newest first given.
    after = listing.page_by_id(alice.uid, limit=3, min_id=everything[-1].id)
    assert [e.id for e in after] == [e.id for e in everything[-4:-1]]
    liked = listing.page_by_id(alice.uid, limit=2, kinds={"like"}, max_id=everything[0].id)
    assert [e.kind for e in liked] == ["like", "like"]


def test_a_page_of_groups_ends_where_a_group_past_the_limit_starts(alice, mixed, small_chunks):
    first, second = mixed
    page = listing.page_by_id(alice.uid, limit=2, groups=True)
    keys = [selectors.group_key(e.kind, e.obj, e.actor) for e in page]
    # The older follow joins the page's follow group; the likes of the first start a
    # third group: the next page's.
    assert keys == ["follow", f"like-{second}", f"like-{second}", "follow"]
    rest = listing.page_by_id(alice.uid, limit=2, groups=True, max_id=page[-1].id)
    assert [selectors.group_key(e.kind, e.obj, e.actor) for e in rest] == [f"like-{first}"] * 3
    whole = listing.group_entries(alice.uid, f"like-{first}")
    assert len(whole) == 3 and [
        n.key for n in selectors.notifications_page(alice.uid, 1, 40).notifications
    ] == ["follow", f"like-{second}", f"like-{first}"]
