"""The one rule extended to groups, on every path a status is shown: a private group's
posts only to its members (their author always), never on global, the public streams,
search or tags for others; a public or announcement group's posts to anyone."""

import json

import pytest

from socialsite.redis import get_redis
from timeline.conversations import selectors as conversations
from timeline.export.selectors import export_chunks
from timeline.follow_sets import members as member_sets
from timeline.graph import services as graph
from timeline.groups import selectors, services
from timeline.notifications.selectors import notifications_page
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.search.selectors import search_statuses
from timeline.statuses.selectors import StatusGone
from timeline.tests.pages import ids, status_ids


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def secret(alice, bob, carol):
    """Alice's private group: bob is a member; carol follows alice but is not one."""
    group_id = services.create_group(alice.uid, "Secret", "Secret", kind="private")
    assert services.join_group(group_id, bob.uid) == "requested"
    state = member_sets.decode_state(get_redis().hget(f"groups:{{{bob.uid}}}", str(group_id)))
    # A moderator's approval (timeline.groups.moderation's) is these two steps.
    services.admit(get_redis(), group_id, bob.uid, state, approve=True)
    graph.follow_user(carol.uid, alice.uid)
    return group_id


def test_the_profile_shows_a_private_groups_post_to_members_only(alice, bob, carol, secret, client):
    sid = posting.post_status(alice.uid, "members only", group=secret)
    public = posting.post_status(alice.uid, "for everyone")
    assert status_ids(bob.client.get("/u/alice/")) == [public, sid]
    assert status_ids(alice.client.get("/u/alice/")) == [public, sid]
    assert status_ids(carol.client.get("/u/alice/")) == [public]
    assert status_ids(client.get("/u/alice/")) == [public]


def test_the_status_page_is_404_for_non_members(alice, bob, carol, secret, client):
    sid = posting.post_status(alice.uid, "members only", group=secret)
    assert bob.client.get(f"/statuses/{sid}/").status_code == 200
    assert carol.client.get(f"/statuses/{sid}/").status_code == 404
    assert client.get(f"/statuses/{sid}/").status_code == 404


def test_a_conversation_hides_a_private_groups_replies_from_non_members(alice, bob, carol, secret):
    root = posting.post_status(alice.uid, "a question", group=secret)
    reply = posting.post_status(bob.uid, "an answer", in_reply_to=root)
    assert ids(conversations.conversation(root, bob.uid).replies) == [reply]
    assert conversations.conversation(root, carol.uid) is None
    assert conversations.conversation(root) is None
    with pytest.raises(StatusGone):
        posting.post_status(carol.uid, "me too", in_reply_to=root)


def test_global_never_shows_a_private_groups_post_but_shows_a_public_groups(
    alice, bob, secret, client
):
    open_group = services.create_group(alice.uid, "Open", "Open")
    posting.post_status(alice.uid, "members only", group=secret)
    shown = posting.post_status(alice.uid, "open to all", group=open_group)
    assert status_ids(bob.client.get("/timeline/")) == [shown]
    assert status_ids(client.get("/timeline/")) == [shown]


def test_the_group_timeline_shows_a_private_groups_posts_to_members_only(alice, bob, carol, secret):
    sid = posting.post_status(bob.uid, "members only", group=secret)
    assert ids(selectors.group_page(secret, bob.uid).statuses) == [sid]
    assert ids(selectors.group_page(secret, alice.uid).statuses) == [sid]
    assert selectors.group_page(secret, carol.uid).statuses == []
    assert selectors.group_page(secret, None).statuses == []


def test_leaving_a_private_group_hides_its_posts_at_once(alice, bob, secret):
    sid = posting.post_status(alice.uid, "members only", group=secret)
    services.leave_group(secret, bob.uid)
    assert selectors.group_page(secret, bob.uid).statuses == []
    assert bob.client.get(f"/statuses/{sid}/").status_code == 404


def test_search_finds_a_private_groups_post_for_members_only(alice, bob, carol, secret):
    sid = posting.post_status(alice.uid, "secret garden", group=secret)
    open_group = services.create_group(carol.uid, "Open", "Open")
    public = posting.post_status(carol.uid, "secret garden party", group=open_group)
    assert ids(search_statuses("secret garden", viewer=bob.uid).statuses) == [public, sid]
    assert ids(search_statuses("secret garden", viewer=carol.uid).statuses) == [public]
    assert ids(search_statuses("secret garden").statuses) == [public]


def test_tags_and_mentions_show_a_private_groups_post_to_members_only(alice, bob, carol, secret):
    sid = posting.post_status(alice.uid, "#redis is fun @carol @bob", group=secret)
    assert ids(conversations.tag_page("redis", viewer=bob.uid).statuses) == [sid]
    assert conversations.tag_page("redis", viewer=carol.uid).statuses == []
    assert conversations.tag_page("redis").statuses == []
    assert conversations.mentions_page(carol.uid, viewer=carol.uid).statuses == []
    assert ids(conversations.mentions_page(bob.uid, viewer=bob.uid).statuses) == [sid]
    assert status_ids(carol.client.get("/tags/redis/")) == []


def test_a_private_groups_mentions_and_replies_notify_members_only(alice, bob, carol, secret):
    root = posting.post_status(alice.uid, "hi @bob and @carol", group=secret)
    assert [n.kind for n in notifications_page(bob.uid, 1, 30).notifications] == ["mention"]
    assert notifications_page(carol.uid, 1, 30).notifications == []
    posting.post_status(bob.uid, "hello", in_reply_to=root)
    assert [n.kind for n in notifications_page(alice.uid, 1, 30).notifications][:1] == ["reply"]


def test_a_public_groups_mentions_notify_anyone(alice, carol):
    open_group = services.create_group(alice.uid, "Open", "Open")
    posting.post_status(alice.uid, "hi @carol", group=open_group)
    assert [n.kind for n in notifications_page(carol.uid, 1, 30).notifications] == ["mention"]


def test_non_members_cant_like_or_repost_a_private_groups_post(alice, bob, carol, secret):
    sid = posting.post_status(alice.uid, "members only", group=secret)
    with pytest.raises(StatusGone):
        reactions.like(carol.uid, sid)
    with pytest.raises(ValueError):
        reactions.repost(carol.uid, sid)
    reactions.like(bob.uid, sid)
    assert [n.kind for n in notifications_page(alice.uid, 1, 30).notifications][:1] == ["like"]


def test_a_private_accounts_post_to_a_public_group_is_public_whatever_its_account(
    alice, carol, client
):
    from timeline.safety import services as safety

    open_group = services.create_group(alice.uid, "Open", "Open")
    safety.set_private(alice.uid, True)
    sid = posting.post_status(alice.uid, "open to all", group=open_group)
    from socialsite import jobs

    jobs.work(burst=True)
    assert ids(selectors.group_page(open_group, carol.uid).statuses) == [sid]
    # The account going public and private again leaves the group's post as it is.
    safety.set_private(alice.uid, False)
    safety.set_private(alice.uid, True)
    jobs.work(burst=True)
    assert ids(selectors.group_page(open_group, None).statuses) == [sid]


def test_a_private_groups_post_stays_private_when_its_author_goes_public(alice, carol, secret):
    from socialsite import jobs
    from timeline.safety import services as safety

    safety.set_private(alice.uid, True)
    sid = posting.post_status(alice.uid, "members only", group=secret)
    safety.set_private(alice.uid, False)
    jobs.work(burst=True)
    assert selectors.group_page(secret, carol.uid).statuses == []
    assert carol.client.get(f"/statuses/{sid}/").status_code == 404


def export_of(member) -> dict:
    return json.loads("".join(export_chunks(member.uid, now=0)))


def test_export_names_the_group_of_ones_posts_and_keeps_out_a_left_groups_likes(alice, bob, secret):
    sid = posting.post_status(alice.uid, "members only", group=secret)
    reactions.like(bob.uid, sid)
    mine = posting.post_status(bob.uid, "mine", group=secret)
    services.leave_group(secret, bob.uid)
    exported = export_of(bob)
    assert [(s["id"], s.get("group")) for s in exported["statuses"]] == [(mine, "Secret")]
    assert [s["id"] for s in exported["likes"]] == []
