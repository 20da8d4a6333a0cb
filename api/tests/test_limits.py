"""The client API keeps the site's limits: a made-up token reads as a visitor does and
is counted so, and update_credentials counts against the settings page's limits, all
asked before anything changes."""

from django.urls import reverse

from accounts.services import get_user


def test_a_made_up_token_reads_as_a_visitor_and_is_counted(client, alice, token_for, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "anonymous_reads": (2, 60)}
    made_up = {"HTTP_AUTHORIZATION": "Bearer made-up"}
    answers = [client.get("/api/v1/timelines/public", **made_up) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert 29 <= int(answers[-1]["Retry-After"]) <= 30
    assert answers[-1].json() == {
        "error": "Too many pages read without logging in for now: try again in 30 seconds."
    }
    # A token of someone's reads on from the same address.
    assert client.get("/api/v1/timelines/public", **token_for(alice)).status_code == 200


def test_update_credentials_counts_against_the_settings_pages_limits(alice, api_as, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "profile_changes": (1, 3600)}
    call = api_as(alice)
    path = "/api/v1/accounts/update_credentials"
    assert call("patch", path, {"display_name": "Ada"})[0] == 200

    status, body, response = call("patch", path, {"note": "a new bio", "locked": True})
    assert status == 429 and int(response["Retry-After"]) > 3500
    assert body == {"error": "Too many profile changes for now: try again in 60 minutes."}
    unchanged = get_user(alice.uid)
    assert unchanged.get("bio", "") == "" and not unchanged["private"]
    # The settings page's form shares the limit.
    refused = alice.client.post(reverse("accounts:settings"), {"name": "Ada L."})
    assert refused.status_code == 429
