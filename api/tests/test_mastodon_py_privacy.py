"""Profiles, private accounts, follow requests, blocks, mutes, reports and search as the
Mastodon.py library uses them against a real daphne: who sees what through the API is
what the pages' one rule (timeline.audience.selectors.may_see) lets them see."""

import io

import pytest
from mastodon import MastodonAPIError, MastodonNotFoundError
from PIL import Image

from accounts import profiles
from accounts.services import get_user
from timeline.reports.selectors import moderation_queue


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 200), (240, 180, 20)).save(out, "PNG")
    return out.getvalue()


def test_an_app_updates_the_name_bio_privacy_and_avatar(mastodon_as):
    alice = mastodon_as("alice")
    me = alice.account_update_credentials(
        display_name="Alice L.", note="Hi, I like #redis", locked=True, avatar=png(),
        avatar_mime_type="image/png",
    )  # fmt: skip
    uid = int(me.id)
    try:
        assert (me.display_name, me.locked) == ("Alice L.", True)
        assert "#redis" in me.note and me.source["note"] == "Hi, I like #redis"
        assert me.avatar.endswith("-400.webp")
        assert alice.session.get(me.avatar).headers["Content-Type"] == "image/webp"
        # Everything is checked first: a bad field changes nothing.
        with pytest.raises(MastodonAPIError, match="bio is at most 160"):
            alice.account_update_credentials(display_name="Changed", note="x" * 161)
        with pytest.raises(MastodonAPIError, match="not a picture"):
            alice.account_update_credentials(
                display_name="Changed", avatar=b"<?php", avatar_mime_type="image/png"
            )
        user = get_user(uid)
        assert (user["name"], user["bio"], user["private"]) == (
            "Alice L.",
            "Hi, I like #redis",
            True,
        )
        assert alice.account_update_credentials(locked=False).locked is False
    finally:
        profiles.remove_avatar(uid)


def test_a_private_accounts_statuses_reach_only_approved_followers(mastodon_as):
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    alice_id = int(alice.account_update_credentials(locked=True).id)
    asked = bob.account_follow(alice_id)
    assert (asked.following, asked.requested) == (False, True)
    assert [a.username for a in alice.follow_requests()] == ["bob"]
    assert alice.follow_request_authorize(bob.account_lookup("bob").id).followed_by is True
    root = alice.status_post("for my followers #secret")
    reply = alice.status_post("and more", in_reply_to_id=root.id)
    assert (root.visibility, reply.visibility) == ("private", "private")
    assert [s.id for s in bob.timeline_home()] == [reply.id, root.id]
    assert [s.id for s in bob.account_statuses(alice_id)] == [reply.id, root.id]
    assert bob.status(root.id).id == root.id
    assert [s.id for s in bob.status_context(root.id).descendants] == [reply.id]
    # Carol doesn't follow her: nothing anywhere, and the statuses are 404.
    assert carol.account_statuses(alice_id) == []
    assert carol.timeline_public() == [] and carol.timeline_hashtag("secret") == []
    assert bob.timeline_public() == []
    for status_id in (root.id, reply.id):
        with pytest.raises(MastodonNotFoundError):
            carol.status(status_id)
        with pytest.raises(MastodonNotFoundError):
            carol.status_context(status_id)
    assert carol.account(alice_id).locked is True


def test_blocks_hide_each_from_the_other_both_ways(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    bob_id = alice.account_lookup("bob").id
    alice_id = bob.account_lookup("alice").id
    alice.account_follow(bob_id)
    bob.account_follow(alice_id)
    theirs, mine = bob.status_post("from bob"), alice.status_post("from alice")
    blocked = alice.account_block(bob_id)
    assert (blocked.blocking, blocked.following, blocked.followed_by) == (True, False, False)
    assert [a.username for a in alice.blocks()] == ["bob"]
    assert bob.account_relationships([alice_id])[0].blocked_by is True
    for viewer, status, other_id in ((alice, theirs, bob_id), (bob, mine, alice_id)):
        assert status.id not in [s.id for s in viewer.timeline_home()]
        assert status.id not in [s.id for s in viewer.timeline_public()]
        assert viewer.account_statuses(other_id) == []
        with pytest.raises(MastodonNotFoundError):
            viewer.status(status.id)
    with pytest.raises(MastodonAPIError):
        bob.account_follow(alice_id)
    assert alice.account_unblock(bob_id).blocking is False
    assert [s.id for s in alice.account_statuses(bob_id)] == [theirs.id]


def test_a_muted_users_statuses_leave_home_only(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    bob_id = alice.account_lookup("bob").id
    alice.account_follow(bob_id)
    status = bob.status_post("chatty")
    muted = alice.account_mute(bob_id, duration=3600)
    assert (muted.muting, muted.following) == (True, True)
    assert [a.username for a in alice.mutes()] == ["bob"]
    assert status.id not in [s.id for s in alice.timeline_home()]
    assert [s.id for s in alice.account_statuses(bob_id)] == [status.id]
    alice.account_unmute(bob_id)
    assert [s.id for s in alice.timeline_home()] == [status.id]


def test_a_follower_is_removed_and_a_request_rejected(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    alice_id, bob_id = bob.account_lookup("alice").id, alice.account_lookup("bob").id
    bob.account_follow(alice_id)
    assert alice.account_remove_from_followers(bob_id).followed_by is False
    alice.account_update_credentials(locked=True)
    assert bob.account_follow(alice_id).requested is True
    assert alice.follow_request_reject(bob_id).requested_by is False
    assert alice.follow_requests() == []


def test_a_report_reaches_the_moderation_queue(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    status = bob.status_post("buy cheap watches")
    report = alice.report(status.account.id, [status.id], "spam again", category="spam")
    assert (report.category, report.status_ids) == ("spam", [str(status.id)])
    (group,) = moderation_queue()
    assert (group.kind, group.target) == ("status", int(status.id))
    assert group.reports[0]["reason"] == "spam" and group.reports[0]["comment"] == "spam again"


def test_search_finds_people_statuses_and_tags(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    status = bob.status_post("learning #redis streams")
    found = alice.search_v2("redis")
    assert [s.id for s in found.statuses] == [status.id]
    assert [t.name for t in found.hashtags] == ["redis"]
    assert [a.username for a in alice.search_v2("bob", result_type="accounts").accounts] == ["bob"]
    assert [a.username for a in alice.account_search("bo")] == ["bob"]
