"""The group pages' Redis round trips, pinned: each a small fixed number, whatever the
size of the group or of the page."""

from django.test import Client

from timeline.groups import selectors as groups
from timeline.groups import services
from timeline.groups.moderation import pin
from timeline.posting import services as posting


def test_a_group_page_is_three_round_trips_and_the_home_picker_one(alice, bob, round_trips):
    cats = services.create_group(alice.uid, "cats", "Cat people")
    services.join_group(cats, bob.uid)
    for i in range(40):
        posting.post_status(bob.uid if i % 2 else alice.uid, f"post {i}", group=cats)
    bob.client.get("/g/cats/")  # the session seen, the group's id and names kept
    # The session and its user, with the group and the reader's standing in it (the
    # group's id kept); the page's ids with the suspended users; its statuses with the
    # reader's marks and blocks.
    assert round_trips(lambda: bob.client.get("/g/cats/")) == 3
    # A pinned post: one more, its status with the reader's marks.
    pin(cats, alice.uid, groups.timeline_ids(cats)[0])
    assert round_trips(lambda: bob.client.get("/g/cats/")) == 4
    # A visitor: the group (its id kept), the page's ids, its statuses.
    assert round_trips(lambda: Client().get("/g/cats/")) == 3
    bob.client.get("/")
    # Home's own two (the reader's groups come with its first reads), and the picker's
    # groups' names.
    assert round_trips(lambda: bob.client.get("/")) == 3


def test_a_home_page_of_a_reader_in_no_group_reads_nothing_for_the_picker(make_user, round_trips):
    reader = make_user()
    reader.client.get("/")
    assert round_trips(lambda: reader.client.get("/")) == 2


def test_the_members_page_reads_roles_in_one_round_trip(alice, make_user, round_trips):
    cats = services.create_group(alice.uid, "cats", "Cat people")
    members = [make_user() for _ in range(60)]
    for member in members:
        services.join_group(cats, member.uid)
    reader = members[0]
    reader.client.get("/g/cats/members/")
    # The session; the group and standing; the members' page (ids, then profiles); their roles.
    assert round_trips(lambda: reader.client.get("/g/cats/members/")) == 5
    # A moderator's has whom the group bans too (none here).
    alice.client.get("/g/cats/members/")
    assert round_trips(lambda: alice.client.get("/g/cats/members/")) == 6
