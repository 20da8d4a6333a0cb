"""Groups through the client API: the site's /api/v1/groups endpoints (create, show,
join, leave, members, requests, moderation), posting with group_id, and a group's
timeline read as a list by a real Mastodon client (Mastodon.py)."""

import pytest
from mastodon import MastodonNotFoundError

from timeline.groups import moderation, selectors, services
from timeline.posting import services as posting


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_a_group_is_made_shown_and_looked_up(alice, api_as):
    call = api_as(alice)
    status, made, _ = call(
        "post",
        "/api/v1/groups",
        {"handle": "Cats", "name": "Cats", "description": "meow", "kind": "private"},
    )
    assert status == 200, made
    assert (made["handle"], made["kind"], made["members_count"]) == ("Cats", "private", 1)
    assert made["membership"]["role"] == "owner"
    assert made["list_id"] == f"g{made['id']}"
    assert made["url"].endswith("/g/Cats/")
    assert call("get", f"/api/v1/groups/{made['id']}")[1]["name"] == "Cats"
    assert call("get", "/api/v1/groups/lookup", {"handle": "cats"})[1]["id"] == made["id"]
    assert [g["id"] for g in call("get", "/api/v1/groups")[1]] == [made["id"]]


@pytest.mark.parametrize(
    "sent, error",
    [
        ({"handle": "no", "name": "Cats"}, "3 to 30"),
        ({"handle": "Cats", "name": ""}, "1 to 50"),
        ({"handle": "Cats", "name": "Cats", "kind": "secret"}, "one of public"),
        ({"handle": "Cats", "name": "Cats", "replies": "perhaps"}, "true or false"),
        ({"handle": ["Cats"], "name": "Cats"}, "must be text"),
    ],
)
def test_a_bad_group_is_422_and_makes_nothing(alice, api_as, sent, error):
    status, body, _ = api_as(alice)("post", "/api/v1/groups", sent)
    assert status == 422
    assert error in body["error"]
    assert selectors.groups_of(alice.uid) == []


def test_unknown_groups_are_404_and_a_read_token_cant_make_one(alice, api_as):
    call = api_as(alice)
    for path in ("/api/v1/groups/99", "/api/v1/groups/nope", "/api/v1/groups/lookup"):
        assert call("get", path)[0] == 404
    assert call("post", "/api/v1/groups/99/join")[0] == 404
    status, body, _ = api_as(alice, "read")("post", "/api/v1/groups", {"handle": "Cats"})
    assert status == 403


def test_joining_leaving_and_a_private_groups_requests(alice, bob, carol, api_as):
    public = services.create_group(alice.uid, "Cats", "Cats")
    private = services.create_group(alice.uid, "Secret", "Secret", kind="private")
    as_bob, as_alice = api_as(bob), api_as(alice)
    joined = as_bob("post", f"/api/v1/groups/{public}/join")[1]
    assert joined["membership"]["role"] == "member" and joined["members_count"] == 2
    members = as_bob("get", f"/api/v1/groups/{public}/members")[1]
    assert [m["username"] for m in members] == ["bob", "alice"]
    assert as_bob("post", f"/api/v1/groups/{public}/leave")[1]["membership"]["role"] is None
    asked = as_bob("post", f"/api/v1/groups/{private}/join")[1]
    assert asked["membership"] == {
        "role": None,
        "requested": True,
        "banned": False,
        "show_in_home": True,
    }
    # A private group's members are its members' to see; its requests its moderators'.
    assert as_bob("get", f"/api/v1/groups/{private}/members")[0] == 404
    assert as_bob("get", f"/api/v1/groups/{private}/requests")[0] == 403
    requests = as_alice("get", f"/api/v1/groups/{private}/requests")[1]
    assert [r["username"] for r in requests] == ["bob"]
    status, body, _ = as_bob("post", f"/api/v1/groups/{private}/requests/{bob.uid}/approve")
    assert (status, body["error"]) == (403, moderation.NOT_A_MODERATOR)
    approved = as_alice("post", f"/api/v1/groups/{private}/requests/{bob.uid}/approve")[1]
    assert approved["members_count"] == 2
    assert selectors.membership(private, bob.uid).role == "member"
    as_carol = api_as(carol)
    as_carol("post", f"/api/v1/groups/{private}/join")
    as_alice("post", f"/api/v1/groups/{private}/requests/{carol.uid}/reject")
    assert selectors.membership(private, carol.uid).requested is False
    # Withdrawing a request is leaving before being let in.
    as_carol("post", f"/api/v1/groups/{private}/join")
    left = as_carol("post", f"/api/v1/groups/{private}/leave")[1]
    assert left["membership"]["requested"] is False


def test_posting_with_group_id_puts_the_status_on_the_groups_timeline(alice, bob, api_as):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    as_bob = api_as(bob)
    status, body, _ = as_bob("post", "/api/v1/statuses", {"status": "hi", "group_id": group_id})
    assert (status, body["error"]) == (403, services.NOT_A_MEMBER)
    assert api_as(bob)("post", "/api/v1/statuses", {"status": "x", "group_id": 99})[0] == 404
    as_bob("post", f"/api/v1/groups/{group_id}/join")
    status, posted, _ = as_bob("post", "/api/v1/statuses", {"status": "meow", "group_id": group_id})
    assert status == 200, posted
    assert selectors.timeline_ids(group_id) == [int(posted["id"])]
    timeline = as_bob("get", f"/api/v1/groups/{group_id}/statuses")[1]
    assert [s["id"] for s in timeline] == [posted["id"]]


def test_moderators_pin_remove_ban_and_hand_over_through_the_api(alice, bob, carol, api_as):
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    for member in (bob, carol):
        services.join_group(group_id, member.uid)
    post = posting.post_status(bob.uid, "a cat", group=group_id)
    as_alice, as_bob = api_as(alice), api_as(bob)
    assert as_alice("post", f"/api/v1/groups/{group_id}/pins/{post}")[1]["pinned"] == [str(post)]
    assert as_bob("post", f"/api/v1/groups/{group_id}/pins/{post}")[0] == 403
    assert as_alice("delete", f"/api/v1/groups/{group_id}/pins/{post}")[1]["pinned"] == []
    made = as_alice(
        "post", f"/api/v1/groups/{group_id}/members/{bob.uid}/role", {"role": "moderator"}
    )[1]
    assert made["id"] == str(group_id)
    assert selectors.membership(group_id, bob.uid).role == "moderator"
    status, body, _ = as_bob("delete", f"/api/v1/groups/{group_id}/members/{carol.uid}?ban=true")
    assert status == 200, body
    assert [b["username"] for b in as_bob("get", f"/api/v1/groups/{group_id}/bans")[1]] == ["carol"]
    as_bob("delete", f"/api/v1/groups/{group_id}/bans/{carol.uid}")
    assert moderation.banned(group_id) == []
    assert as_bob("delete", f"/api/v1/groups/{group_id}/statuses/{post}")[0] == 200
    assert selectors.timeline_ids(group_id) == []
    status, body, _ = as_bob("post", f"/api/v1/groups/{group_id}/transfer", {"account_id": bob.uid})
    assert (status, body["error"]) == (403, moderation.NOT_THE_OWNER)
    handed = as_alice("post", f"/api/v1/groups/{group_id}/transfer", {"account_id": bob.uid})[1]
    assert handed["owner_id"] == str(bob.uid)
    assert as_alice("delete", f"/api/v1/groups/{group_id}")[0] == 403
    assert as_bob("patch", f"/api/v1/groups/{group_id}", {"name": "Big cats"})[1]["name"] == (
        "Big cats"
    )
    assert as_bob("delete", f"/api/v1/groups/{group_id}")[0] == 200
    assert as_bob("get", f"/api/v1/groups/{group_id}")[0] == 404


def test_group_moderation_is_rate_limited(alice, bob, api_as, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "group_moderation": (1, 3600)}
    group_id = services.create_group(alice.uid, "Cats", "Cats")
    services.join_group(group_id, bob.uid)
    as_alice = api_as(alice)
    path = f"/api/v1/groups/{group_id}/members/{bob.uid}/role"
    assert as_alice("post", path, {"role": "moderator"})[0] == 200
    status, body, response = as_alice("post", path, {"role": "member"})
    assert status == 429 and body["error"].startswith("Too many")
    assert int(response["Retry-After"]) > 0
    assert selectors.membership(group_id, bob.uid).role == "moderator"


def test_a_mastodon_client_reads_a_group_as_one_of_its_lists(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    made = alice._Mastodon__api_request(
        "POST", "/api/v1/groups", {"handle": "Cats", "name": "Cat people"}
    )
    bob._Mastodon__api_request("POST", f"/api/v1/groups/{made['id']}/join")
    posted = bob._Mastodon__api_request(
        "POST", "/api/v1/statuses", {"status": "meow", "group_id": made["id"]}
    )
    own = bob.list_create("Friends")
    lists = bob.lists()
    assert [(entry.id, entry.title) for entry in lists] == [
        (own.id, "Friends"),
        (f"g{made['id']}", "Cat people"),
    ]
    assert bob.list(f"g{made['id']}").title == "Cat people"
    assert [s.id for s in bob.timeline_list(f"g{made['id']}")] == [posted["id"]]
    assert [s.id for s in alice.timeline_list(made["list_id"])] == [posted["id"]]
    assert [a.username for a in bob.list_accounts(made["list_id"])] == ["bob", "alice"]


def test_a_private_groups_list_is_its_members_alone(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    made = alice._Mastodon__api_request(
        "POST", "/api/v1/groups", {"handle": "Secret", "name": "Secret", "kind": "private"}
    )
    alice._Mastodon__api_request(
        "POST", "/api/v1/statuses", {"status": "psst", "group_id": made["id"]}
    )
    assert len(alice.timeline_list(made["list_id"])) == 1
    with pytest.raises(MastodonNotFoundError):
        bob.timeline_list(made["list_id"])
    # Asking is not being let in: the request notifies alice, as the site's own type.
    bob._Mastodon__api_request("POST", f"/api/v1/groups/{made['id']}/join")
    with pytest.raises(MastodonNotFoundError):
        bob.timeline_list(made["list_id"])
    (asked,) = alice.notifications()
    assert (asked.type, asked.account.username) == ("group_request", "bob")
    assert (asked.group.handle, asked.group.name) == ("Secret", "Secret")
    bob_id = bob.account_verify_credentials().id
    alice._Mastodon__api_request("POST", f"/api/v1/groups/{made['id']}/requests/{bob_id}/approve")
    assert [s.content for s in bob.timeline_list(made["list_id"])] == ["<p>psst</p>"]
    (approved,) = bob.notifications()
    assert approved.type == "group_approval"
