"""A group's notifications: a request to join tells the group's owner and moderators,
an approval the requester; on the notifications page and its live event."""

import pytest

from socialsite.testing.published import published_on
from timeline import keys
from timeline.groups import moderation, services
from timeline.notifications import selectors
from timeline.tests.pages import page_text


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def private_group(alice, carol):
    group_id = services.create_group(alice.uid, "Secret", "Secret club", kind="private")
    services.join_group(group_id, carol.uid)
    moderation.approve_request(group_id, alice.uid, carol.uid)
    moderation.set_role(group_id, alice.uid, carol.uid, "moderator")
    return group_id


def texts(uid: int) -> list[str]:
    return [n.text for n in selectors.notifications_page(uid, 1, 40).notifications]


def test_a_request_to_join_notifies_the_owner_and_the_moderators_once(
    alice, bob, carol, private_group
):
    services.join_group(private_group, bob.uid)
    services.join_group(private_group, bob.uid)  # asking again notifies no one twice
    for moderator in (alice, carol):
        assert texts(moderator.uid)[0] == "@bob asked to join Secret club"
        assert texts(moderator.uid).count("@bob asked to join Secret club") == 1
    # Carol's own request went when it was answered.
    assert selectors.unread_counts(alice.uid)["notifications"] == 1
    assert texts(bob.uid) == []


def test_an_approval_notifies_the_requester_and_answers_the_moderators_request(
    alice, bob, carol, private_group
):
    services.join_group(private_group, bob.uid)
    moderation.approve_request(private_group, carol.uid, bob.uid)
    assert texts(bob.uid) == ["@carol approved your request to join Secret club"]
    assert "@bob asked to join Secret club" not in texts(alice.uid)


def test_a_request_withdrawn_turned_down_or_removed_is_taken_back(alice, bob, carol, private_group):
    for answer in (
        lambda: services.cancel_request(private_group, bob.uid),
        lambda: moderation.reject_request(private_group, carol.uid, bob.uid),
        lambda: moderation.remove_member(private_group, carol.uid, bob.uid, ban=True),
    ):
        services.join_group(private_group, bob.uid)
        assert "@bob asked to join Secret club" in texts(alice.uid)
        answer()
        assert texts(alice.uid) == []
        assert "@bob asked to join Secret club" not in texts(carol.uid)
    assert selectors.unread_counts(alice.uid)["notifications"] == 0


def test_joining_a_public_group_notifies_nobody(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    assert texts(alice.uid) == []


def test_the_notifications_page_names_and_links_the_group(alice, bob, private_group):
    services.join_group(private_group, bob.uid)
    shown = page_text(alice.client.get("/notifications/"))
    assert "@bob asked to join Secret club" in shown
    assert 'href="/g/Secret/requests/"' in alice.client.get("/notifications/").content.decode()
    moderation.approve_request(private_group, alice.uid, bob.uid)
    page = bob.client.get("/notifications/").content.decode()
    assert "@alice approved your request to join Secret club" in page_text(
        bob.client.get("/notifications/")
    )
    assert 'href="/g/Secret/"' in page


def test_a_deleted_groups_notifications_are_left_out(alice, bob, private_group):
    services.join_group(private_group, bob.uid)
    assert texts(alice.uid) == ["@bob asked to join Secret club"]
    moderation.delete_group(private_group, alice.uid)
    assert texts(alice.uid) == []


def test_the_live_event_names_the_group(alice, bob, private_group, redis_conn):
    services.join_group(private_group, bob.uid)
    with published_on(redis_conn, keys.PRIVATE_CHANNEL) as private_events:
        moderation.approve_request(private_group, alice.uid, bob.uid)
        sent = private_events()
    (approval,) = [e for e in sent if e["type"] == "notification" and e["to"] == [bob.uid]]
    assert approval["notification"]["text"] == "@alice approved your request to join Secret"


def test_group_notifications_ride_the_pages_round_trips(
    alice, bob, carol, private_group, round_trips
):
    from timeline.posting import services as posting
    from timeline.reactions import services as reactions

    liked = posting.post_status(alice.uid, "like me")
    reactions.like(bob.uid, liked)
    plain = round_trips(lambda: selectors.notifications_page(alice.uid, 1, 40))
    services.join_group(private_group, bob.uid)
    with_groups = round_trips(lambda: selectors.notifications_page(alice.uid, 1, 40))
    assert plain == with_groups == 2
    assert texts(alice.uid)[0] == "@bob asked to join Secret club"


def test_a_moderation_act_reads_who_may_in_one_round_trip(alice, bob, private_group, round_trips):
    services.join_group(private_group, bob.uid)
    assert round_trips(lambda: moderation.check_moderator(private_group, alice.uid, bob.uid)) == 1
    # Checked (1), let in (2: the group's step, the member's), the two logins (2), the
    # moderators (1), the notification with the request's own taken back (1).
    approved = round_trips(lambda: moderation.approve_request(private_group, alice.uid, bob.uid))
    assert approved == 7
