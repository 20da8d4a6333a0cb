"""A group's post reaches its members' homes by the followers' durable, chunked fan-out,
once each, and its author's followers only where they may see it."""

from django.test import override_settings

from socialsite import jobs
from socialsite.redis import get_redis
from timeline.feeds import fanout
from timeline.follow_sets import members as member_sets
from timeline.graph import services as graph
from timeline.groups import selectors, services
from timeline.posting import services as posting
from timeline.services import get_status_messages
from timeline.tests.pages import home_entries, ids


def big_group(owner: int, make_user, n: int, kind: str = "public") -> tuple[int, list[int]]:
    """A group of `owner` and `n` members who joined one a second (so pieces and chunks
    fall between them)."""
    group_id = services.create_group(owner, "Big", "Big", kind=kind)
    uids = [make_user().uid for _ in range(n)]
    services.add_members_in_bulk(group_id, {uid: 100 + i for i, uid in enumerate(uids)})
    return group_id, uids


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3, FOLLOWERS_PIECE_SIZE=3)
def test_a_big_groups_post_reaches_every_member_once_through_chunk_jobs(alice, make_user):
    group_id, uids = big_group(alice.uid, make_user, 13)
    assert len(member_sets.piece_starts(get_redis(), group_id)) >= 3
    assert selectors.get_group(group_id).members == 14
    sid = posting.post_status(alice.uid, "to all fourteen", group=group_id)
    # The first pass reached two members in the request; a split job, then its chunks.
    assert jobs.work(burst=True) >= 3
    for uid in uids:
        assert home_entries(uid) == [sid]
    assert home_entries(alice.uid) == [sid]


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3, FOLLOWERS_PIECE_SIZE=3)
def test_a_group_post_is_retracted_from_every_members_home(alice, make_user):
    group_id, uids = big_group(alice.uid, make_user, 8)
    sid = posting.post_status(alice.uid, "short-lived", group=group_id)
    jobs.work(burst=True)
    posting.delete_status(alice.uid, sid)
    jobs.work(burst=True)
    for uid in uids:
        assert sid not in home_entries(uid)


def test_a_member_who_follows_the_author_gets_the_post_once(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    graph.follow_user(bob.uid, alice.uid)
    sid = posting.post_status(alice.uid, "Meow", group=group_id)
    jobs.work(burst=True)
    assert home_entries(bob.uid).count(sid) == 1


def test_followers_get_a_public_groups_post_but_not_a_private_groups(alice, bob):
    public = services.create_group(alice.uid, "Open", "Open")
    private = services.create_group(alice.uid, "Closed", "Closed", kind="private")
    graph.follow_user(bob.uid, alice.uid)
    seen = posting.post_status(alice.uid, "Open to all", group=public)
    unseen = posting.post_status(alice.uid, "Members only", group=private)
    jobs.work(burst=True)
    assert home_entries(bob.uid) == [seen]
    assert ids(get_status_messages(bob.uid, "home")) == [seen]
    assert unseen not in ids(selectors.group_page(private, bob.uid).statuses)


def test_show_in_home_off_keeps_a_groups_posts_out_of_a_members_home(alice, bob, make_user):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    carol = make_user().uid
    for uid in (bob.uid, carol):
        services.join_group(group_id, uid)
    services.set_show_in_home(group_id, bob.uid, False)
    # Following the author doesn't bring it back: the switch is for the group's posts.
    graph.follow_user(bob.uid, alice.uid)
    sid = posting.post_status(alice.uid, "Meow", group=group_id)
    jobs.work(burst=True)
    assert sid not in home_entries(bob.uid)
    assert home_entries(carol) == [sid]
    assert ids(selectors.group_page(group_id, bob.uid).statuses) == [sid]
    services.set_show_in_home(group_id, bob.uid, True)
    later = posting.post_status(alice.uid, "Purr", group=group_id)
    assert home_entries(bob.uid) == [later]


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=3, FOLLOWERS_PIECE_SIZE=3)
def test_the_members_job_skips_those_who_turned_show_in_home_off(alice, make_user):
    group_id, uids = big_group(alice.uid, make_user, 9)
    quiet = uids[5]
    services.set_show_in_home(group_id, quiet, False)
    sid = posting.post_status(alice.uid, "to most", group=group_id)
    jobs.work(burst=True)
    assert [uid for uid in uids if sid in home_entries(uid)] == [u for u in uids if u != quiet]


def test_a_non_group_status_queues_no_members_job(alice):
    status = {"id": 1, "uid": alice.uid, "posted": 1.0}
    assert fanout.audiences_of(status) == ["followers", "lists"]
    assert fanout.audiences_of({**status, "group": "3"}) == ["followers", "lists", "members"]


def test_a_member_who_left_quiet_and_joins_again_gets_the_posts_again(alice, bob):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    services.set_show_in_home(group_id, bob.uid, False)
    services.leave_group(group_id, bob.uid)
    services.join_group(group_id, bob.uid)
    assert selectors.membership(group_id, bob.uid).show_in_home is True
    sid = posting.post_status(alice.uid, "welcome back", group=group_id)
    assert home_entries(bob.uid) == [sid]
