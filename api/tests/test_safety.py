"""Profiles, private accounts, follow requests, blocks, mutes and reports through the
API (the Django test client, tokens made directly): the entities show them, and each
endpoint goes through the services of the pages' safety settings."""

import io
import re

import pytest
from PIL import Image

from accounts import profiles
from timeline.graph.selectors import is_following
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.reports.selectors import moderation_queue
from timeline.safety import services as safety


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


@pytest.fixture
def as_bob(bob, api_as):
    return api_as(bob)


def picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (500, 500), (10, 120, 200)).save(out, "PNG")
    return out.getvalue()


def test_an_account_shows_its_bio_website_location_avatar_and_privacy(
    alice, as_alice, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    me = as_alice("get", f"/api/v1/accounts/{alice.uid}")[1]
    assert re.fullmatch(r"http://testserver/static/img/avatar\.[0-9a-f]{12}\.png", me["avatar"])
    assert (me["note"], me["fields"], me["locked"]) == ("", [], False)
    profiles.update_profile(
        alice.uid, bio="I like #redis\nand @bob", website="https://alice.example", location="Paris"
    )
    profiles.set_avatar(alice.uid, picture())
    safety.set_private(alice.uid, True)
    me = as_alice("get", f"/api/v1/accounts/{alice.uid}")[1]
    assert me["avatar"].startswith("http://testserver/media/avatars/")
    assert me["avatar"].endswith("-400.webp") and me["avatar_static"] == me["avatar"]
    assert me["note"] == (
        '<p>I like <a class="tag" href="http://testserver/tags/redis/">#redis</a><br>'
        'and <a class="mention" href="http://testserver/u/bob/">@bob</a></p>'
    )
    assert [f["name"] for f in me["fields"]] == ["Website", "Location"]
    assert 'href="https://alice.example"' in me["fields"][0]["value"]
    assert me["locked"] is True
    own = as_alice("get", "/api/v1/accounts/verify_credentials")[1]
    assert own["source"]["note"] == "I like #redis\nand @bob"
    assert own["source"]["privacy"] == "private"
    assert own["source"]["fields"][0]["value"] == "https://alice.example"


def test_a_private_accounts_statuses_are_private(alice, bob, as_alice, as_bob):
    follow_user(alice.uid, bob.uid)
    public = post_status(bob.uid, "public")
    safety.set_private(alice.uid, True)
    private = post_status(alice.uid, "for my followers")
    found = {s["id"]: s["visibility"] for s in as_alice("get", "/api/v1/timelines/home")[1]}
    assert found == {str(private): "private", str(public): "public"}
    # A private account's app asks for private statuses (its default); a public account
    # may post one followers-only (visibility per post), and a public one stays private.
    posted = as_alice("post", "/api/v1/statuses", {"status": "hi", "visibility": "private"})
    assert posted[0] == 200 and posted[1]["visibility"] == "private"
    status, body, _ = as_bob("post", "/api/v1/statuses", {"status": "hi", "visibility": "private"})
    assert status == 200 and body["visibility"] == "private"
    status, body, _ = as_alice("post", "/api/v1/statuses", {"status": "hi", "visibility": "public"})
    assert status == 200 and body["visibility"] == "private"


def test_following_a_private_account_asks_and_they_authorize_or_reject(
    alice, bob, make_user, as_alice, as_bob, api_as
):
    safety.set_private(alice.uid, True)
    asked = as_bob("post", f"/api/v1/accounts/{alice.uid}/follow")[1]
    assert (asked["following"], asked["requested"]) == (False, True)
    status, waiting, _ = as_alice("get", "/api/v1/follow_requests")
    assert status == 200 and [a["username"] for a in waiting] == ["bob"]
    assert as_alice("get", f"/api/v1/accounts/relationships?id[]={bob.uid}")[1][0]["requested_by"]
    approved = as_alice("post", f"/api/v1/follow_requests/{bob.uid}/authorize")[1]
    assert approved["followed_by"] is True and is_following(bob.uid, alice.uid)
    assert as_alice("get", "/api/v1/follow_requests")[1] == []
    carol = make_user("carol")
    as_carol = api_as(carol)
    as_carol("post", f"/api/v1/accounts/{alice.uid}/follow")
    rejected = as_alice("post", f"/api/v1/follow_requests/{carol.uid}/reject")[1]
    assert rejected["followed_by"] is False
    assert (
        as_carol("get", f"/api/v1/accounts/relationships?id[]={alice.uid}")[1][0]["requested"]
        is False
    )
    # No request (any more): a clear error, nothing changes.
    status, body, _ = as_alice("post", f"/api/v1/follow_requests/{carol.uid}/authorize")
    assert (status, body) == (422, {"error": "There is no such follow request."})
    assert not is_following(carol.uid, alice.uid)


def test_removing_a_follower_ends_their_follow(alice, bob, as_alice):
    follow_user(bob.uid, alice.uid)
    gone = as_alice("post", f"/api/v1/accounts/{bob.uid}/remove_from_followers")[1]
    assert gone["followed_by"] is False and not is_following(bob.uid, alice.uid)


def test_a_block_ends_the_follows_lists_the_blocked_and_stops_them_following(
    alice, bob, as_alice, as_bob
):
    follow_user(alice.uid, bob.uid)
    follow_user(bob.uid, alice.uid)
    blocked = as_alice("post", f"/api/v1/accounts/{bob.uid}/block")[1]
    assert (blocked["blocking"], blocked["following"], blocked["followed_by"]) == (
        True,
        False,
        False,
    )
    assert not is_following(bob.uid, alice.uid)
    assert [a["username"] for a in as_alice("get", "/api/v1/blocks")[1]] == ["bob"]
    theirs = as_bob("get", f"/api/v1/accounts/relationships?id[]={alice.uid}")[1][0]
    assert (theirs["blocked_by"], theirs["blocking"]) == (True, False)
    status, body, _ = as_bob("post", f"/api/v1/accounts/{alice.uid}/follow")
    assert status == 403 and set(body) == {"error"}
    assert not is_following(bob.uid, alice.uid)
    unblocked = as_alice("post", f"/api/v1/accounts/{bob.uid}/unblock")[1]
    assert unblocked["blocking"] is False and as_alice("get", "/api/v1/blocks")[1] == []


def test_mutes_take_a_duration_in_seconds_and_a_bad_one_changes_nothing(alice, bob, as_alice):
    for duration in ("5", "-1", "abc", "3600.5"):
        status, body, _ = as_alice(
            "post", f"/api/v1/accounts/{bob.uid}/mute", {"duration": duration}
        )
        assert status == 422 and "duration" in body["error"], duration
    assert as_alice("get", "/api/v1/mutes")[1] == []
    muted = as_alice("post", f"/api/v1/accounts/{bob.uid}/mute", {"duration": 3600})[1]
    assert (muted["muting"], muted["muting_notifications"]) == (True, True)
    assert [a["username"] for a in as_alice("get", "/api/v1/mutes")[1]] == ["bob"]
    assert as_alice("post", f"/api/v1/accounts/{bob.uid}/unmute")[1]["muting"] is False
    assert as_alice("post", f"/api/v1/accounts/{alice.uid}/mute")[0] == 422


def test_blocks_and_mutes_take_mastodons_scopes(alice, bob, api_as):
    as_reader = api_as(alice, "read")
    assert as_reader("post", f"/api/v1/accounts/{bob.uid}/block")[0] == 403
    assert as_reader("post", f"/api/v1/accounts/{bob.uid}/mute")[0] == 403
    assert as_reader("get", "/api/v1/blocks")[1] == []
    # Mastodon's follow scope reads and changes blocks, mutes and follows.
    as_follower = api_as(alice, "follow")
    assert as_follower("post", f"/api/v1/accounts/{bob.uid}/block")[1]["blocking"] is True
    assert [a["username"] for a in as_follower("get", "/api/v1/blocks")[1]] == ["bob"]
    assert as_follower("get", "/api/v1/follow_requests")[0] == 200
    assert as_follower("get", f"/api/v1/accounts/relationships?id={bob.uid}")[0] == 200
    assert as_follower("get", "/api/v1/timelines/home")[0] == 403


def test_reports_name_an_account_or_its_statuses_with_a_category(alice, bob, as_alice):
    first, second = post_status(bob.uid, "spam spam"), post_status(bob.uid, "more spam")
    status, filed, _ = as_alice(
        "post",
        "/api/v1/reports",
        {
            "account_id": str(bob.uid),
            "status_ids": [str(first), str(second)],
            "comment": "ads",
            "category": "spam",
        },
    )
    assert status == 200
    assert (filed["category"], filed["comment"], filed["status_ids"]) == (
        "spam",
        "ads",
        [str(first), str(second)],
    )
    assert filed["target_account"]["username"] == "bob"
    account = as_alice("post", "/api/v1/reports", {"account_id": bob.uid, "category": "violation"})
    assert account[0] == 200 and account[1]["status_ids"] is None
    reasons = sorted((r.kind, r.reports[0]["reason"]) for r in moderation_queue())
    assert reasons == [("status", "spam"), ("status", "spam"), ("user", "abuse")]


def test_bad_reports_are_refused_and_file_nothing(alice, bob, as_alice):
    mine = post_status(alice.uid, "my own")
    for data in (
        {},
        {"account_id": bob.uid, "category": "rude"},
        {"account_id": bob.uid, "comment": "x" * 501},
        {"account_id": bob.uid, "status_ids": [str(mine)]},
        {"account_id": alice.uid},
        {"account_id": bob.uid, "status_ids": ["999"]},
    ):
        status, body, _ = as_alice("post", "/api/v1/reports", data)
        assert status == 422 and set(body) == {"error"}, data
    assert as_alice("post", "/api/v1/reports", {"account_id": "777"})[0] == 404
    assert moderation_queue() == []
