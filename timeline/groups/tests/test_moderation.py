"""A group's moderation: requests answered, roles, removals and bans, pins, posts removed,
the group handed over and deleted, its avatar; and who may do each."""

import io

import pytest
from django.core.files.storage import default_storage
from django.core.management import call_command
from PIL import Image

from accounts.avatars import BadAvatar
from timeline.groups import moderation, selectors, services, staff
from timeline.groups.services import GroupError
from timeline.moderation import groups as group_jobs
from timeline.posting import services as posting
from timeline.statuses.selectors import get_status
from timeline.tests.pages import home_entries


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def private_group(alice):
    return services.create_group(alice.uid, "Secret", "Secret club", kind="private")


@pytest.fixture
def public_group(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    return group_id


def test_a_moderator_approves_a_request_and_the_requester_becomes_a_member(
    alice, bob, private_group
):
    assert services.join_group(private_group, bob.uid) == "requested"
    moderation.approve_request(private_group, alice.uid, bob.uid)
    member = selectors.membership(private_group, bob.uid)
    assert (member.role, member.requested) == ("member", False)
    assert selectors.get_group(private_group).members == 2
    assert bob.uid in selectors.member_uids(private_group)
    profiles, _ = selectors.requests(private_group)
    assert profiles == []


def test_approving_without_a_request_or_as_a_member_is_refused(alice, bob, carol, private_group):
    with pytest.raises(GroupError, match="haven't asked"):
        moderation.approve_request(private_group, alice.uid, bob.uid)
    services.join_group(private_group, bob.uid)
    with pytest.raises(GroupError, match="moderators"):
        moderation.approve_request(private_group, carol.uid, bob.uid)
    assert selectors.membership(private_group, bob.uid).requested


def test_a_rejected_request_is_gone_from_both_sides(alice, bob, private_group):
    services.join_group(private_group, bob.uid)
    moderation.reject_request(private_group, alice.uid, bob.uid)
    moderation.reject_request(private_group, alice.uid, bob.uid)  # idempotent
    member = selectors.membership(private_group, bob.uid)
    assert (member.role, member.requested) == (None, False)
    assert selectors.requests(private_group)[0] == []
    # Asking again is a new request.
    assert services.join_group(private_group, bob.uid) == "requested"


def test_the_owner_names_a_moderator_who_then_approves(alice, bob, carol, private_group):
    services.join_group(private_group, bob.uid)
    moderation.approve_request(private_group, alice.uid, bob.uid)
    moderation.set_role(private_group, alice.uid, bob.uid, "moderator")
    assert selectors.membership(private_group, bob.uid).role == "moderator"
    assert staff.moderators_of(private_group) == [alice.uid, bob.uid]
    services.join_group(private_group, carol.uid)
    moderation.approve_request(private_group, bob.uid, carol.uid)
    assert selectors.membership(private_group, carol.uid).role == "member"
    # Only the owner names moderators.
    with pytest.raises(GroupError, match="owner"):
        moderation.set_role(private_group, bob.uid, carol.uid, "moderator")
    moderation.set_role(private_group, alice.uid, bob.uid, "member")
    assert selectors.membership(private_group, bob.uid).role == "member"
    assert staff.moderators_of(private_group) == [alice.uid]
    with pytest.raises(GroupError, match="moderators"):
        moderation.reject_request(private_group, bob.uid, carol.uid)


def test_a_role_is_given_only_to_a_member(alice, bob, public_group, carol):
    with pytest.raises(GroupError, match="one of moderator, member"):
        moderation.set_role(public_group, alice.uid, bob.uid, "owner")
    with pytest.raises(GroupError, match="aren't a member"):
        moderation.set_role(public_group, alice.uid, carol.uid, "moderator")
    with pytest.raises(GroupError, match="aren't a member"):
        moderation.set_role(public_group, alice.uid, alice.uid, "member")
    assert selectors.membership(public_group, carol.uid).role is None
    assert staff.moderators_of(public_group) == [alice.uid]


def test_a_banned_member_is_out_and_can_join_again_only_once_unbanned(alice, bob, public_group):
    moderation.remove_member(public_group, alice.uid, bob.uid, ban=True)
    assert selectors.membership(public_group, bob.uid).role is None
    assert selectors.membership(public_group, bob.uid).banned
    assert selectors.get_group(public_group).members == 1
    assert moderation.banned(public_group) == [bob.uid]
    with pytest.raises(GroupError, match="may not join"):
        services.join_group(public_group, bob.uid)
    moderation.unban(public_group, alice.uid, bob.uid)
    assert services.join_group(public_group, bob.uid) == "member"


def test_removing_without_a_ban_lets_them_join_again(alice, bob, public_group):
    moderation.remove_member(public_group, alice.uid, bob.uid)
    assert selectors.member_uids(public_group) == [alice.uid]
    assert services.join_group(public_group, bob.uid) == "member"


def test_nobody_removes_the_owner_and_only_the_owner_removes_a_moderator(
    alice, bob, carol, public_group
):
    services.join_group(public_group, carol.uid)
    moderation.set_role(public_group, alice.uid, bob.uid, "moderator")
    moderation.set_role(public_group, alice.uid, carol.uid, "moderator")
    with pytest.raises(GroupError, match="owner can't be removed"):
        moderation.remove_member(public_group, bob.uid, alice.uid)
    with pytest.raises(GroupError, match="Only the owner removes a moderator"):
        moderation.remove_member(public_group, bob.uid, carol.uid)
    moderation.remove_member(public_group, alice.uid, carol.uid)
    assert staff.moderators_of(public_group) == [alice.uid, bob.uid]
    assert selectors.membership(public_group, carol.uid).role is None


def test_a_member_may_not_moderate(alice, bob, carol, public_group):
    services.join_group(public_group, carol.uid)
    status_id = posting.post_status(carol.uid, "hello cats", group=public_group)
    for act in (
        lambda: moderation.remove_member(public_group, bob.uid, carol.uid),
        lambda: moderation.pin(public_group, bob.uid, status_id),
        lambda: moderation.remove_post(public_group, bob.uid, status_id),
        lambda: moderation.unban(public_group, bob.uid, carol.uid),
    ):
        with pytest.raises(GroupError, match="moderators"):
            act()
    for act in (
        lambda: moderation.transfer_ownership(public_group, bob.uid, carol.uid),
        lambda: moderation.delete_group(public_group, bob.uid),
    ):
        with pytest.raises(GroupError, match="owner"):
            act()
    assert selectors.get_group(public_group).pinned == ()
    assert selectors.timeline_ids(public_group) == [status_id]


def test_up_to_three_posts_are_pinned_newest_pin_first(alice, bob, public_group):
    posts = [posting.post_status(bob.uid, f"post {n}", group=public_group) for n in range(4)]
    for status_id in posts[:3]:
        moderation.pin(public_group, alice.uid, status_id)
    assert selectors.get_group(public_group).pinned == tuple(reversed(posts[:3]))
    with pytest.raises(GroupError, match="at most 3"):
        moderation.pin(public_group, alice.uid, posts[3])
    # Pinning a pinned post again moves it first.
    assert moderation.pin(public_group, alice.uid, posts[0]) == (posts[0], posts[2], posts[1])
    assert moderation.unpin(public_group, alice.uid, posts[2]) == (posts[0], posts[1])
    assert moderation.unpin(public_group, alice.uid, posts[2]) == (posts[0], posts[1])
    assert moderation.pin(public_group, alice.uid, posts[3])[0] == posts[3]


def test_only_the_groups_own_posts_are_pinned(alice, bob, public_group):
    elsewhere = posting.post_status(bob.uid, "not in the group")
    with pytest.raises(GroupError, match="own posts"):
        moderation.pin(public_group, alice.uid, elsewhere)


def test_a_removed_post_leaves_the_group_at_once_then_every_home(alice, bob, carol, public_group):
    services.join_group(public_group, carol.uid)
    status_id = posting.post_status(bob.uid, "off topic", group=public_group)
    moderation.pin(public_group, alice.uid, status_id)
    assert status_id in home_entries(carol.uid)
    moderation.remove_post(public_group, alice.uid, status_id)
    assert selectors.timeline_ids(public_group) == []
    assert selectors.get_group(public_group).pinned == ()
    call_command("worker", burst=True)
    assert get_status(status_id) is None
    assert status_id not in home_entries(carol.uid)
    assert status_id not in home_entries(alice.uid)


def test_a_post_of_another_group_is_not_removed(alice, bob, public_group):
    other = services.create_group(bob.uid, "Dogs", "Dogs")
    status_id = posting.post_status(bob.uid, "woof", group=other)
    with pytest.raises(GroupError, match="isn't a post of this group"):
        moderation.remove_post(public_group, alice.uid, status_id)
    call_command("worker", burst=True)
    assert get_status(status_id) is not None


def test_the_owner_hands_the_group_over_and_stays_a_moderator(alice, bob, carol, public_group):
    with pytest.raises(GroupError, match="one of its members"):
        moderation.transfer_ownership(public_group, alice.uid, carol.uid)
    moderation.transfer_ownership(public_group, alice.uid, bob.uid)
    group = selectors.get_group(public_group)
    assert group.owner == bob.uid
    assert selectors.membership(public_group, bob.uid).role == "owner"
    assert selectors.membership(public_group, alice.uid).role == "moderator"
    assert staff.moderators_of(public_group) == [bob.uid, alice.uid]
    # The old owner may leave now; the new one may not.
    services.leave_group(public_group, alice.uid)
    with pytest.raises(GroupError, match="hand the group over"):
        services.leave_group(public_group, bob.uid)
    with pytest.raises(GroupError, match="owner"):
        moderation.delete_group(public_group, alice.uid)


def test_a_deleted_group_is_gone_at_once_and_a_job_removes_its_posts_and_memberships(
    alice, bob, carol, public_group, redis_conn, monkeypatch
):
    # Small batches, so the job goes on from batch to batch.
    monkeypatch.setattr(group_jobs, "GROUP_DELETION_BATCH", 2)
    secret = services.create_group(carol.uid, "Secret", "Secret", kind="private")
    services.join_group(public_group, carol.uid)
    services.set_show_in_home(public_group, carol.uid, False)
    posts = [posting.post_status(bob.uid, f"post {n}", group=public_group) for n in range(5)]
    elsewhere = posting.post_status(bob.uid, "my own post")
    moderation.delete_group(public_group, alice.uid)
    assert selectors.get_group(public_group) is None
    assert selectors.group_for_handle("Cats") is None
    assert public_group not in [g.id for g in selectors.directory()[0]]
    with pytest.raises(ValueError):
        posting.post_status(bob.uid, "too late", group=public_group)
    with pytest.raises(ValueError):
        services.join_group(public_group, carol.uid)
    call_command("worker", burst=True)
    assert [get_status(status_id) for status_id in posts] == [None] * 5
    assert get_status(elsewhere) is not None
    for member in (alice, bob):
        assert [g.id for g, _ in selectors.groups_of(member.uid)] == []
    assert [g.id for g, _ in selectors.groups_of(carol.uid)] == [secret]
    left = [key for key in redis_conn.keys("group:*") if f"{{g{public_group}}}" in str(key)]
    assert left == []


def test_deleting_again_or_a_redone_job_changes_nothing(alice, bob, public_group):
    posting.post_status(bob.uid, "a post", group=public_group)
    moderation.delete_group(public_group, alice.uid)
    call_command("worker", burst=True)
    for stage in ("posts", "members", "requests", "keys"):
        assert group_jobs.delete_group_batch({"group_id": public_group, "stage": stage}) in (
            [],
            [("delete_group", {"group_id": public_group, "stage": next_stage(stage)})],
        )
    with pytest.raises(ValueError):
        moderation.delete_group(public_group, alice.uid)


def next_stage(stage: str) -> str:
    stages = ("posts", "members", "requests", "keys")
    return stages[min(stages.index(stage) + 1, len(stages) - 1)]


def picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (600, 300), (30, 120, 200)).save(out, "PNG")
    return out.getvalue()


def test_a_moderator_sets_the_avatar_redrawn_and_the_old_files_go(
    alice, bob, public_group, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    first = moderation.set_avatar(public_group, alice.uid, picture())
    group = selectors.get_group(public_group)
    assert group.avatar == first
    for size in (400, 96):
        name = moderation.avatar_name(public_group, first, size)
        assert default_storage.exists(name)
        with default_storage.open(name) as stored:
            assert Image.open(stored).size == (size, size)
    assert moderation.group_avatar_url(group).endswith(f"{first}-96.webp")
    second = moderation.set_avatar(public_group, alice.uid, picture())
    assert not default_storage.exists(moderation.avatar_name(public_group, first, 96))
    with pytest.raises(BadAvatar):
        moderation.set_avatar(public_group, alice.uid, b"<script>not a picture</script>")
    with pytest.raises(GroupError, match="moderators"):
        moderation.set_avatar(public_group, bob.uid, picture())
    assert selectors.get_group(public_group).avatar == second
    assert moderation.set_avatar(public_group, alice.uid, None) == ""
    assert selectors.get_group(public_group).avatar == ""
    assert not default_storage.exists(moderation.avatar_name(public_group, second, 96))
