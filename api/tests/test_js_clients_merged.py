"""masto.js and megalodon against what issue 34's other parts build, written to Mastodon's
documented behaviour (4.3): notifications with type filters, by id, dismissed, counted and
grouped (v2); markers; filters (v2 with masto.js, v1 as megalodon calls them); the
`user:notification` and `public:local` streams; and no call an app makes on start-up
failing. These pass once the notifications, preferences and streaming parts are merged."""

from timeline.posting.services import post_status

from .js_clients import Poster, run_scenario


def _alice_with_notifications(mastodon_as):
    """alice, notified by bob (a like, a mention) and carol (a follow), following bob, whose
    home has statuses for a warning filter and a hiding one."""
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    alice_id = alice.account_verify_credentials().id
    alice.account_follow(bob.account_verify_credentials().id)
    bob.status_favourite(alice.status_post("my own status").id)
    bob.status_post("@alice hello there")
    carol.account_follow(alice_id)
    bob.status_post("a spoiler about the film")
    bob.status_post("something unwanted")
    return alice


def test_masto_js_notifications_markers_and_filters(daphne_server, mastodon_as):
    alice = _alice_with_notifications(mastodon_as)
    result = run_scenario("masto_merged.mjs", {"base": daphne_server, "token": alice.access_token})
    assert sorted(n["type"] for n in result["all"]) == ["favourite", "follow", "mention"]
    assert all(n["groupKey"] for n in result["all"])
    assert result["mentions"] == ["mention"]
    assert "favourite" not in result["noFavourites"] and len(result["noFavourites"]) == 2
    assert result["one"] == {"id": result["all"][0]["id"], "type": result["all"][0]["type"]}
    assert isinstance(result["unread"], int)
    assert sorted(g["type"] for g in result["groups"]) == ["favourite", "follow", "mention"]
    assert {"bob", "carol"} <= set(result["groupedAccounts"])
    assert result["oneGroup"] == [result["groups"][0]["groupKey"]]
    assert result["all"][0]["id"] not in result["afterDismiss"]
    assert result["markers"]["home"] == result["homeFirst"]
    assert result["markers"]["notifications"] == result["firstNotification"]
    assert result["markers"]["version"] is not None
    assert {(f["title"], f["action"]) for f in result["filters"]} == {
        ("spoilers", "warn"),
        ("hidden", "hide"),
    }
    shown = {s["content"]: s["filtered"] for s in result["filteredHome"]}
    assert not any("unwanted" in content for content in shown)
    [spoiler] = [filtered for content, filtered in shown.items() if "spoiler" in content]
    assert spoiler == ["spoilers"]


def test_megalodon_notifications_markers_and_start_up_calls(daphne_server, mastodon_as):
    alice = _alice_with_notifications(mastodon_as)
    result = run_scenario(
        "megalodon_merged.mjs", {"base": daphne_server, "token": alice.access_token}
    )
    assert "favourite" not in result["noFavourites"] and len(result["noFavourites"]) == 2
    assert result["one"]["type"] in {"follow", "mention"}
    assert result["markers"]["home"] == result["homeFirst"]
    assert result["failed"] == {}


def test_masto_js_start_up_calls_are_never_a_404(daphne_server, mastodon_as):
    alice = mastodon_as("alice")
    result = run_scenario("masto_startup.mjs", {"base": daphne_server, "token": alice.access_token})
    assert result["failed"] == {}


def _streams(daphne_server, mastodon_as, script: str, streams: list[str], want) -> dict:
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    bob_uid = int(bob.account_verify_credentials().id)
    config = {
        "base": daphne_server,
        "token": alice.access_token,
        "streams": streams,
        "want": want,
    }
    with Poster(lambda n: post_status(bob_uid, f"@alice local news {n}")) as poster:
        return run_scenario(script, config, ready=poster.start)


def test_masto_js_streams_user_notification_and_public_local(daphne_server, mastodon_as):
    result = _streams(
        daphne_server,
        mastodon_as,
        "masto_streaming.mjs",
        ["user:notification", "public:local"],
        {"user:notification": "notification", "public:local": "update"},
    )
    assert result["errors"] == []
    assert result["events"]["user:notification"][0] == "mention"
    assert "local news" in result["streams"]["user:notification"][0]
    assert "local news" in result["events"]["public:local"][0]


def test_megalodon_streams_public_local(daphne_server, mastodon_as):
    result = _streams(
        daphne_server, mastodon_as, "megalodon_streaming.mjs", ["public:local"], "update"
    )
    assert result["errors"] == []
    assert "local news" in result["events"]["public:local"][0]
