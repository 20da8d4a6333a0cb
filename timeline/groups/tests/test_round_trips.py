"""What groups cost in Redis round trips: a post to a group one more than a post (its
check); the followers of a public group's author one more (are they members?); the
group's page as any timeline page; a join and a leave each a fixed few."""

from timeline.graph import services as graph
from timeline.groups import selectors, services
from timeline.posting import services as posting


def test_a_post_to_a_group_is_one_round_trip_more_than_a_post(alice, bob, round_trips):
    group_id = services.create_group(alice.uid, "Cats", "Cats", kind="private")
    assert round_trips(lambda: posting.post_status(alice.uid, "meow", group=group_id)) == 4
    services.join_group(group_id, bob.uid)
    graph.follow_user(bob.uid, alice.uid)
    # A private group's post reaches no follower as one: nothing asked of them.
    assert round_trips(lambda: posting.post_status(alice.uid, "meow", group=group_id)) == 4


def test_a_public_groups_post_asks_whether_its_authors_followers_are_members(
    alice, bob, round_trips
):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    graph.follow_user(bob.uid, alice.uid)
    assert round_trips(lambda: posting.post_status(alice.uid, "meow", group=group_id)) == 5


def test_a_group_page_is_two_round_trips_as_any_timeline_page(alice, bob, round_trips):
    group_id = services.create_group(alice.uid, "Cats", "Cats", kind="private")
    for i in range(5):
        posting.post_status(alice.uid, f"status {i}", group=group_id)
    assert round_trips(lambda: selectors.group_page(group_id, bob.uid)) == 2


def test_joining_and_leaving_are_a_few_round_trips_whatever_the_group(alice, bob, round_trips):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    assert round_trips(lambda: services.join_group(group_id, bob.uid)) == 3
    assert round_trips(lambda: services.leave_group(group_id, bob.uid)) == 3
    assert round_trips(lambda: selectors.membership(group_id, bob.uid)) == 1
