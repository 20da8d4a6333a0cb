"""Bookmarks, pins and followed tags as the Mastodon.py library uses them, against a
real daphne."""

from socialsite import jobs


def test_bookmarks_with_mastodon_py(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    posted = [bob.status_post(f"keep {n}") for n in range(3)]
    for status in posted:
        assert alice.status_bookmark(status.id).bookmarked is True
    page = alice.bookmarks(limit=2)
    seen = [s.id for s in page]
    while page := alice.fetch_next(page):
        seen += [s.id for s in page]
    assert seen == [s.id for s in reversed(posted)]
    assert alice.status(posted[0].id).bookmarked is True
    assert bob.status(posted[0].id).bookmarked is False
    assert alice.status_unbookmark(posted[0].id).bookmarked is False
    assert [s.id for s in alice.bookmarks()] == [posted[2].id, posted[1].id]


def test_pins_with_mastodon_py(mastodon_as):
    alice = mastodon_as("alice")
    pinned = alice.status_post("pinned")
    alice.status_post("not pinned")
    assert alice.status_pin(pinned.id).pinned is True
    me = alice.account_verify_credentials()
    assert [s.id for s in alice.account_statuses(me.id, pinned=True)] == [pinned.id]
    assert alice.status_unpin(pinned.id).pinned is False
    assert alice.account_statuses(me.id, pinned=True) == []


def test_followed_tags_with_mastodon_py(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    followed = alice.tag_follow("redis")
    assert followed.name == "redis" and followed.following is True
    assert [t.name for t in alice.followed_tags()] == ["redis"]
    assert alice.tag("redis").following is True
    status = bob.status_post("news about #redis")
    jobs.work(burst=True)
    assert [s.id for s in alice.timeline_home()] == [status.id]
    assert alice.tag_unfollow("redis").following is False
    assert alice.followed_tags() == []
