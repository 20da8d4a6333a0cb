"""Mastodon's streaming API over WebSocket, as Mastodon.py's WebSocket streaming and a
plain WebSocket client use it against daphne: update and delete events of the user,
public and hashtag streams, and refusals."""

import json
import queue

import pytest
from mastodon.streaming import StreamListener
from websockets.sync.client import connect

WAIT = 30
# A probe a few seconds apart, few enough to stay far inside the posts rate limit.
PROBES, PROBE_WAIT = 10, 3


class Collected(StreamListener):
    """Mastodon.py's listener, keeping each event's name and payload (to take), and the
    ids of every update (to look back on)."""

    def __init__(self) -> None:
        self.events: queue.Queue = queue.Queue()
        self.updated: list = []

    def on_update(self, status):
        self.updated.append(status.id)
        self.events.put(("update", status))

    def on_delete(self, status_id):
        self.events.put(("delete", status_id))


def next_update(listener: Collected, poster, text: str):
    """Posts `text` (as `poster`) until its update comes: a subscription made by a
    message has no answer saying it is open, as on Mastodon."""
    for _ in range(PROBES):
        posted = poster.status_post(text)
        try:
            while True:
                kind, payload = listener.events.get(timeout=PROBE_WAIT)
                if kind == "update" and payload.id == posted.id:
                    return posted, payload
        except queue.Empty:
            continue
    raise AssertionError(f"no update for {text!r}")


def test_mastodon_py_streams_home_updates_and_deletes(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    alice.account_follow(alice.account_lookup("bob").id)
    listener = Collected()
    handle = alice.stream_open_websocket(listener)
    try:
        handle.subscribe("user")
        posted, update = next_update(listener, bob, "streamed to my followers")
        assert update.account.username == "bob"
        assert "streamed to my followers" in update.content
        bob.status_delete(posted.id)
        kind, payload = listener.events.get(timeout=WAIT)
        assert (kind, str(payload)) == ("delete", str(posted.id))
    finally:
        handle.close()


def test_mastodon_py_streams_a_tag_and_the_public_timeline(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    tagged, public = Collected(), Collected()
    handle = alice.stream_open_websocket()
    try:
        handle.subscribe("hashtag", listener=tagged, tag="python")
        handle.subscribe("public", listener=public)
        _, update = next_update(tagged, bob, "I like #Python")
        assert [tag.name for tag in update.tags] == ["python"]
        # Not tagged: public only.
        posted, _ = next_update(public, bob, "python without the tag")
        assert all(payload.id != posted.id for _, payload in list(tagged.events.queue))
    finally:
        handle.close()


@pytest.fixture
def stream_url(daphne_server):
    return daphne_server.replace("http://", "ws://") + "/api/v1/streaming"


def test_a_stream_named_in_the_url_is_open_once_connected(mastodon_as, stream_url):
    alice = mastodon_as("alice")
    url = f"{stream_url}?stream=user&access_token={alice.access_token}"
    with connect(url, open_timeout=10) as socket:
        posted = alice.status_post("my own status, live")
        event = json.loads(socket.recv(timeout=WAIT))
        assert event["stream"] == ["user"] and event["event"] == "update"
        assert json.loads(event["payload"])["id"] == str(posted.id)


def test_bad_tokens_streams_and_messages_get_mastodon_errors(mastodon_as, stream_url):
    with connect(f"{stream_url}?stream=user&access_token=nope", open_timeout=10) as socket:
        assert json.loads(socket.recv(timeout=WAIT)) == {
            "error": "Invalid access token",
            "status": 401,
        }
    alice = mastodon_as("alice")
    token = alice.access_token
    with connect(f"{stream_url}?stream=nonsense&access_token={token}", open_timeout=10) as socket:
        assert json.loads(socket.recv(timeout=WAIT))["status"] == 400
    headers = {"Authorization": f"Bearer {token}"}
    with connect(stream_url, additional_headers=headers, open_timeout=10) as socket:
        socket.send("not json")
        assert json.loads(socket.recv(timeout=WAIT))["status"] == 400
        socket.send(json.dumps({"type": "subscribe", "stream": "hashtag", "tag": "no spaces"}))
        assert "tag" in json.loads(socket.recv(timeout=WAIT))["error"]


def test_public_and_tag_streams_carry_no_private_or_blocked_statuses(mastodon_as):
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    dave, erin = mastodon_as("dave"), mastodon_as("erin")
    alice_id = alice.account_update_credentials(locked=True).id
    bob.account_follow(alice_id)
    alice.follow_request_authorize(bob.account_lookup("bob").id)
    carol.account_block(carol.account_lookup("erin").id)
    tagged, public, home = Collected(), Collected(), Collected()
    carols, bobs = carol.stream_open_websocket(), bob.stream_open_websocket()
    try:
        carols.subscribe("hashtag", listener=tagged, tag="secret")
        carols.subscribe("public", listener=public)
        bobs.subscribe("user", listener=home)
        next_update(tagged, dave, "#secret probe")
        next_update(public, dave, "public probe")
        # The approved follower's own stream carries it.
        private, _ = next_update(home, alice, "for my followers #secret")
        blocked = erin.status_post("from the blocked #secret")
        # Each stream relays in order: once the last probe is in, so would they be.
        last, _ = next_update(tagged, dave, "#secret last probe")
        while public.events.get(timeout=WAIT)[1].id != last.id:
            pass
        assert last.id in tagged.updated and last.id in public.updated
        seen = tagged.updated + public.updated
        assert private.id not in seen and blocked.id not in seen
    finally:
        carols.close()
        bobs.close()
