"""An account's followers and following through the API obey the viewer as the pages
do: nothing to either side of a block, a private account's lists only to it and its
approved followers."""

import pytest

from timeline.graph.services import follow_user
from timeline.safety import services as safety


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def listed(call, uid: int) -> dict[str, list[str]]:
    """The logins `call` (an api_as caller) gets of `uid`'s followers and following."""
    found = {}
    for side in ("followers", "following"):
        status, accounts, _ = call("get", f"/api/v1/accounts/{uid}/{side}")
        assert status == 200, (side, accounts)
        found[side] = sorted(account["username"] for account in accounts)
    return found


def test_a_blocked_viewer_gets_the_blockers_lists_as_empty_as_the_pages_show_them(
    alice, bob, carol, api_as
):
    follow_user(carol.uid, alice.uid)
    follow_user(alice.uid, carol.uid)
    safety.block(alice.uid, bob.uid)
    for path in (f"/u/{alice.login}/followers/", f"/u/{alice.login}/following/"):
        assert "Nobody yet." in bob.client.get(path).content.decode()
    assert listed(api_as(bob), alice.uid) == {"followers": [], "following": []}
    # Nor the blocker those of whom they blocked.
    follow_user(carol.uid, bob.uid)
    assert listed(api_as(alice), bob.uid) == {"followers": [], "following": []}
    assert listed(api_as(carol), alice.uid) == {"followers": ["carol"], "following": ["carol"]}


def test_a_private_accounts_lists_show_to_it_and_its_approved_followers_only(
    alice, bob, carol, make_user, api_as
):
    follow_user(bob.uid, alice.uid)
    follow_user(alice.uid, carol.uid)
    safety.set_private(alice.uid, True)
    both = {"followers": ["bob"], "following": ["carol"]}
    assert listed(api_as(alice), alice.uid) == both
    assert listed(api_as(bob), alice.uid) == both
    stranger = make_user("dave")
    assert listed(api_as(stranger), alice.uid) == {"followers": [], "following": []}
    # A pending request is not an approval.
    follow_user(stranger.uid, alice.uid)
    assert listed(api_as(stranger), alice.uid) == {"followers": [], "following": []}
    safety.approve_request(alice.uid, stranger.uid)
    assert listed(api_as(stranger), alice.uid)["followers"] == ["bob", "dave"]


def test_visitors_get_a_public_accounts_lists_and_not_a_private_ones(alice, bob, client):
    follow_user(bob.uid, alice.uid)
    assert client.get(f"/api/v1/accounts/{alice.uid}/followers").json()[0]["username"] == "bob"
    safety.set_private(alice.uid, True)
    assert client.get(f"/api/v1/accounts/{alice.uid}/followers").json() == []
    assert client.get(f"/api/v1/accounts/{bob.uid}/following").json()[0]["username"] == "alice"
