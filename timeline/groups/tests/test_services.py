import pytest

from timeline.groups import selectors, services
from timeline.groups.services import GroupError
from timeline.posting import services as posting
from timeline.tests.pages import home_entries, ids


def test_creating_a_group_makes_its_owner_its_first_member(alice):
    group_id = services.create_group(alice.uid, "Redis_Fans", " Redis fans ", "All things Redis")
    group = selectors.get_group(group_id)
    assert (group.handle, group.name, group.kind, group.owner, group.members) == (
        "Redis_Fans",
        "Redis fans",
        "public",
        alice.uid,
        1,
    )
    assert selectors.group_for_handle("redis_fans") == group
    mine = selectors.membership(group_id, alice.uid)
    assert (mine.role, mine.show_in_home, mine.requested) == ("owner", True, False)
    assert [(g.id, m.role) for g, m in selectors.groups_of(alice.uid)] == [(group_id, "owner")]
    assert selectors.member_uids(group_id) == [alice.uid]


@pytest.mark.parametrize("handle", ["ab", "x" * 31, "no spaces", "dash-es", "", None])
def test_a_bad_handle_is_refused_and_creates_nothing(alice, handle):
    with pytest.raises(GroupError, match="3 to 30"):
        services.create_group(alice.uid, handle, "Name")
    assert selectors.groups_of(alice.uid) == []


def test_a_handle_is_unique_in_any_case(alice, bob):
    services.create_group(alice.uid, "Cats", "Cats")
    with pytest.raises(GroupError, match="taken"):
        services.create_group(bob.uid, "cATS", "Other cats")
    assert selectors.groups_of(bob.uid) == []


def test_a_bad_kind_name_or_description_is_refused(alice):
    with pytest.raises(GroupError, match="one of public"):
        services.create_group(alice.uid, "Cats", "Cats", kind="secret")
    with pytest.raises(GroupError, match="1 to 50"):
        services.create_group(alice.uid, "Cats", " ")
    with pytest.raises(GroupError, match="at most 500"):
        services.create_group(alice.uid, "Cats", "Cats", "x" * 501)
    with pytest.raises(GroupError):
        services.create_group(alice.uid, "Cats", "Ca\u202ets")


def test_joining_a_public_group_makes_a_member_and_leaving_undoes_it(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    assert services.join_group(group_id, bob.uid) == "member"
    assert services.join_group(group_id, bob.uid) == "member"  # idempotent
    assert selectors.get_group(group_id).members == 2
    assert selectors.membership(group_id, bob.uid).role == "member"
    assert selectors.member_uids(group_id) == [bob.uid, alice.uid]
    services.leave_group(group_id, bob.uid)
    services.leave_group(group_id, bob.uid)
    assert selectors.get_group(group_id).members == 1
    assert selectors.membership(group_id, bob.uid).role is None
    assert selectors.groups_of(bob.uid) == []


def test_the_owner_cant_leave(alice):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    with pytest.raises(GroupError, match="hand the group over"):
        services.leave_group(group_id, alice.uid)
    assert selectors.membership(group_id, alice.uid).role == "owner"


def test_joining_a_private_group_asks_and_a_request_can_be_withdrawn(alice, bob):
    group_id = services.create_group(alice.uid, "Secret", "Secret", kind="private")
    assert services.join_group(group_id, bob.uid) == "requested"
    assert services.join_group(group_id, bob.uid) == "requested"
    state = selectors.membership(group_id, bob.uid)
    assert (state.role, state.requested) == (None, True)
    users, more = selectors.requests(group_id)
    assert ([u["login"] for u in users], more) == (["bob"], False)
    assert selectors.get_group(group_id).members == 1
    services.cancel_request(group_id, bob.uid)
    assert selectors.membership(group_id, bob.uid).requested is False
    assert selectors.requests(group_id) == ([], False)


def test_an_approval_admits_a_requester(alice, bob):
    from socialsite.redis import get_redis
    from timeline.follow_sets import members as member_sets

    group_id = services.create_group(alice.uid, "Secret", "Secret", kind="private")
    services.join_group(group_id, bob.uid)
    state = member_sets.decode_state(get_redis().hget(f"groups:{{{bob.uid}}}", str(group_id)))
    assert services.admit(get_redis(), group_id, bob.uid, state, approve=True) == "member"
    assert selectors.membership(group_id, bob.uid).role == "member"
    assert selectors.get_group(group_id).members == 2


def test_joining_no_group_is_refused(bob):
    with pytest.raises(selectors.NoSuchGroup):
        services.join_group(999, bob.uid)
    with pytest.raises(selectors.NoSuchGroup):
        services.join_group("x", bob.uid)


def test_editing_is_for_moderators_and_renames_in_the_directory(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    with pytest.raises(GroupError, match="moderators"):
        services.edit_group(group_id, bob.uid, name="Dogs")
    services.edit_group(group_id, alice.uid, name="Dogs and more", description="Woof")
    group = selectors.get_group(group_id)
    assert (group.name, group.description) == ("Dogs and more", "Woof")
    assert [g.id for g in selectors.directory("dog")[0]] == [group_id]
    assert selectors.directory("cats")[0] == [group]  # the handle still matches
    assert selectors.directory("fluffy")[0] == []


def test_the_directory_lists_every_kind_by_members_or_newest(alice, bob, make_user):
    public = services.create_group(alice.uid, "Open", "Open house")
    private = services.create_group(alice.uid, "Closed", "Closed house", kind="private")
    news = services.create_group(bob.uid, "News", "News", kind="announcement")
    services.join_group(public, bob.uid)
    services.join_group(news, make_user().uid)
    services.join_group(news, make_user().uid)
    assert [g.id for g in selectors.directory()[0]] == [news, public, private]
    assert [g.id for g in selectors.directory(order="newest")[0]] == [news, private, public]
    page, more = selectors.directory(count=2)
    assert ([g.id for g in page], more) == ([news, public], True)
    assert [g.id for g in selectors.directory("house")[0]] == [public, private]
    with pytest.raises(ValueError):
        selectors.directory(order="best")


def test_show_in_home_is_a_members_switch(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    with pytest.raises(GroupError, match="members"):
        services.set_show_in_home(group_id, bob.uid, False)
    services.join_group(group_id, bob.uid)
    services.set_show_in_home(group_id, bob.uid, False)
    assert selectors.membership(group_id, bob.uid).show_in_home is False
    services.set_show_in_home(group_id, bob.uid, True)
    assert selectors.membership(group_id, bob.uid).show_in_home is True


def test_members_post_to_a_group_and_it_shows_on_its_timeline(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    status_id = posting.post_status(bob.uid, "Meow", group=group_id)
    page = selectors.group_page(group_id, None)
    assert ids(page.statuses) == [status_id]
    assert page.statuses[0]["group_handle"] == "Cats"
    assert status_id in home_entries(alice.uid)


def test_a_non_member_may_not_post_to_a_group(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    with pytest.raises(GroupError, match="members"):
        posting.post_status(bob.uid, "Meow", group=group_id)
    with pytest.raises(selectors.NoSuchGroup):
        posting.post_status(bob.uid, "Meow", group=12345)
    assert selectors.timeline_ids(group_id) == []


def test_only_moderators_post_in_an_announcement_group_and_members_reply(alice, bob):
    group_id = services.create_group(alice.uid, "News", "News", kind="announcement")
    services.join_group(group_id, bob.uid)
    with pytest.raises(GroupError, match="moderators"):
        posting.post_status(bob.uid, "Me too", group=group_id)
    news = posting.post_status(alice.uid, "Big news", group=group_id)
    reply = posting.post_status(bob.uid, "Nice", in_reply_to=news)
    assert selectors.timeline_ids(group_id) == [news]
    services.edit_group(group_id, alice.uid, replies=False)
    with pytest.raises(GroupError, match="no replies"):
        posting.post_status(bob.uid, "Again", in_reply_to=news)
    from timeline.feeds.selectors import shown_status

    assert shown_status(reply)["group"] == str(group_id)


def test_a_reply_to_a_group_post_belongs_to_its_group(alice, bob, make_user):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    post = posting.post_status(alice.uid, "Meow", group=group_id)
    outsider = make_user().uid
    with pytest.raises(GroupError, match="members"):
        posting.post_status(outsider, "Hi", in_reply_to=post)
    services.join_group(group_id, bob.uid)
    reply = posting.post_status(bob.uid, "Purr", in_reply_to=post)
    from timeline.feeds.selectors import shown_status

    assert shown_status(reply)["group"] == str(group_id)


def test_deleting_a_group_post_takes_it_off_the_group_timeline(alice):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    post = posting.post_status(alice.uid, "Meow", group=group_id)
    posting.delete_status(alice.uid, post)
    assert selectors.timeline_ids(group_id) == []


def test_members_pages_newest_first(alice, make_user, small_pieces):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    joined = [make_user().uid for _ in range(7)]
    for uid in joined:
        services.join_group(group_id, uid)
    first, more = selectors.members(group_id, count=5)
    assert more is True
    assert selectors.get_group(group_id).members == 8
    assert set(selectors.member_uids(group_id)) == {alice.uid, *joined}
    assert len(first) == 5


@pytest.mark.django_db
def test_a_closed_account_leaves_its_groups_and_withdraws_its_requests(alice, bob, monkeypatch):
    from django.core.management import call_command

    from accounts import services as account_services
    from timeline.moderation import services as moderation

    monkeypatch.setattr(moderation, "PURGE_BATCH", 1)
    groups = [services.create_group(alice.uid, f"Open{i}", "Open") for i in range(3)]
    secret = services.create_group(alice.uid, "Secret", "Secret", kind="private")
    own = services.create_group(bob.uid, "Bobs", "Bob's")
    for group_id in [*groups, secret]:
        services.join_group(group_id, bob.uid)
    posted = posting.post_status(bob.uid, "bye", group=groups[0])
    account_services.close_account(bob.uid)
    call_command("worker", burst=True)
    assert [selectors.get_group(g).members for g in groups] == [1, 1, 1]
    assert selectors.requests(secret) == ([], False)
    assert selectors.timeline_ids(groups[0]) == []
    assert posted not in home_entries(alice.uid)
    # A group they owned stays, for a moderator's or the site's hand.
    assert selectors.get_group(own).owner == bob.uid


def test_a_join_whose_own_step_was_lost_is_made_whole_once(alice, make_user, small_pieces):
    from socialsite.redis import get_redis

    group_id = services.create_group(alice.uid, "Cats", "Cats")
    early = make_user().uid
    services.add_members_in_bulk(group_id, {early: 5})
    services.add_members_in_bulk(group_id, {make_user().uid: 10 + i for i in range(6)})
    # The member's own step never ran: the group counts them, their hash doesn't.
    get_redis().hdel(f"groups:{{{early}}}", str(group_id))
    assert services.join_group(group_id, early) == "member"
    assert selectors.get_group(group_id).members == 8
    assert selectors.member_uids(group_id).count(early) == 1
    assert selectors.membership(group_id, early).role == "member"
