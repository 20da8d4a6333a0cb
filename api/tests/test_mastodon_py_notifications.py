"""Notifications and follow options as the Mastodon.py library uses them, against a
real daphne: type filters, one by id, dismiss, clear, the unread count, grouped
notifications (v2), and follow with reblogs and notify."""

import pytest
from mastodon import MastodonNotFoundError

from socialsite import jobs


@pytest.fixture
def alice_and_bob(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    me = alice.me()
    posted = alice.status_post("hello")
    bob.status_favourite(posted.id)
    bob.status_post("hi @alice")
    bob.account_follow(me.id)
    return alice, bob, posted


def test_notifications_filters_by_id_dismiss_and_clear(alice_and_bob):
    alice, bob, posted = alice_and_bob
    assert [n.type for n in alice.notifications()] == ["follow", "mention", "favourite"]
    assert [n.type for n in alice.notifications(types=["mention"])] == ["mention"]
    left = alice.notifications(exclude_types=["mention", "follow"])
    assert [n.type for n in left] == ["favourite"] and left[0].status.id == posted.id
    bob_id = bob.me().id
    assert len(alice.notifications(account_id=bob_id)) == 3
    (liked,) = left
    assert alice.notifications(id=liked.id).type == "favourite"
    # Pages both ways (Mastodon.py follows the Link header).
    first = alice.notifications(limit=2)
    older = alice.fetch_next(first)
    assert [n.id for n in first + older] == [n.id for n in alice.notifications()]
    assert [n.id for n in alice.fetch_previous(older)] == [n.id for n in first]
    assert alice.notifications_unread_count().count == 3
    alice.notifications_dismiss(liked.id)
    with pytest.raises(MastodonNotFoundError):
        alice.notifications(id=liked.id)
    assert [n.type for n in alice.notifications()] == ["follow", "mention"]
    alice.notifications_clear()
    assert alice.notifications() == [] and alice.notifications_unread_count().count == 0


def test_grouped_notifications(mastodon_as):
    alice = mastodon_as("alice")
    posted = alice.status_post("popular")
    fans = [mastodon_as(f"fan{i}") for i in range(3)]
    for fan in fans:
        fan.status_favourite(posted.id)
    results = alice.grouped_notifications()
    (group,) = results.notification_groups
    assert (group.type, group.notifications_count, group.status_id) == ("favourite", 3, posted.id)
    assert {a.username for a in results.accounts} == {"fan0", "fan1", "fan2"}
    assert alice.grouped_notification(group.group_key).notification_groups[0].group_key == (
        group.group_key
    )
    people = alice.grouped_notification_accounts(group.group_key)
    assert [p.username for p in people] == ["fan2", "fan1", "fan0"]
    assert alice.unread_grouped_notifications_count() == 1
    alice.dismiss_grouped_notification(group.group_key)
    assert alice.grouped_notifications().notification_groups == []


def test_follow_with_reblogs_off_and_notify_on(mastodon_as):
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    bob_id = bob.me().id
    relation = alice.account_follow(bob_id, reblogs=False, notify=True)
    assert relation.following and not relation.showing_reblogs and relation.notifying
    shared = carol.status_post("worth sharing")
    bob.status_reblog(shared.id)
    own = bob.status_post("my own words")
    jobs.work(burst=True)
    assert [s.id for s in alice.timeline_home()] == [own.id]
    (note,) = alice.notifications(types=["status"])
    assert note.status.id == own.id and note.account.id == bob_id
    again = alice.account_follow(bob_id, reblogs=True, notify=False)
    assert again.showing_reblogs and not again.notifying
    assert {s.id for s in alice.timeline_home()} >= {own.id}
