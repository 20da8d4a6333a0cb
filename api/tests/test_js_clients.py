"""The two most used JavaScript clients, masto.js and megalodon (package.json), driven by
Node against a real daphne as Mastodon.py and toot are: signing in with the code flow,
verifying credentials, posting, home paged both ways, favourites, reblogs, follows,
search, and the user, public and hashtag streams."""

from api.vapid import vapid_public_key
from timeline.posting.services import post_status

from .conftest import PASSWORD
from .js_clients import REDIRECT_URI, Poster, consent_as, run_scenario
from .push_server import Device


def test_masto_js_signs_in_posts_pages_and_acts(daphne_server, person, mastodon_as):
    bob = mastodon_as("bob")
    bob.status_post("bob's first")
    bob_id = bob.account_verify_credentials().id
    person("alice")
    result = run_scenario(
        "masto_basics.mjs",
        {
            "base": daphne_server,
            "redirectUri": REDIRECT_URI,
            "other": {"id": str(bob_id), "username": "bob"},
        },
        answer=consent_as(daphne_server, "alice", PASSWORD),
    )
    assert result["me"]["username"] == "alice"
    newest_first = list(reversed(result["posted"]))
    assert [i for page in result["older"] for i in page] == newest_first
    assert all(len(page) <= 2 for page in result["older"])
    assert sorted(i for page in result["newer"] for i in page) == sorted(result["posted"][1:])
    assert result["favourited"] and result["reblogged"] and result["following"]
    assert "bob" in result["found"]
    assert len(result["favourites"]) == 1


def test_megalodon_signs_in_posts_pages_acts_and_subscribes_to_push(
    daphne_server, person, mastodon_as, settings
):
    bob = mastodon_as("bob")
    bob.status_post("bob's first")
    bob_id = bob.account_verify_credentials().id
    person("alice")
    endpoint, device = "https://push.example/alice", Device()
    result = run_scenario(
        "megalodon_basics.mjs",
        {
            "base": daphne_server,
            "redirectUri": REDIRECT_URI,
            "other": {"id": str(bob_id), "username": "bob"},
            "push": {"endpoint": endpoint, "keys": device.keys},
        },
        answer=consent_as(daphne_server, "alice", PASSWORD),
    )
    assert result["me"]["username"] == "alice"
    assert [i for page in result["older"] for i in page] == list(reversed(result["posted"]))
    assert sorted(i for page in result["newer"] for i in page) == sorted(result["posted"][1:])
    assert result["favourited"] and result["reblogged"] and result["following"]
    assert "bob" in result["found"]
    assert result["push"]["serverKey"] == vapid_public_key()
    assert result["push"]["alerts"]["follow"] is True
    assert result["streamingUrl"].startswith("ws://")


def _stream_as_alice(daphne_server, mastodon_as, script: str, streams: list[str]) -> dict:
    """alice follows bob and runs `script` on `streams`; bob posts with #redis meanwhile."""
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    bob_id = bob.account_verify_credentials().id
    alice.account_follow(bob_id)
    bob_uid = int(bob_id)
    config = {
        "base": daphne_server,
        "token": alice.access_token,
        "streams": streams,
        "tag": "redis",
    }
    with Poster(lambda n: post_status(bob_uid, f"news {n} about #redis")) as poster:
        return run_scenario(script, config, ready=poster.start)


def test_masto_js_streams_user_public_and_hashtag(daphne_server, mastodon_as):
    result = _stream_as_alice(
        daphne_server, mastodon_as, "masto_streaming.mjs", ["user", "public", "hashtag"]
    )
    assert result["errors"] == []
    for name in ("user", "public", "hashtag"):
        assert "redis" in result["events"][name][0]


def test_megalodon_streams_user_public_and_hashtag(daphne_server, mastodon_as):
    result = _stream_as_alice(
        daphne_server, mastodon_as, "megalodon_streaming.mjs", ["user", "public", "hashtag"]
    )
    assert result["errors"] == []
    for name in ("user", "public", "hashtag"):
        assert "redis" in result["events"][name][0]
