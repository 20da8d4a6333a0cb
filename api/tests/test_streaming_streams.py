"""Mastodon's streams beyond user/public/hashtag over WebSocket, as the websockets library
and Mastodon.py use them against daphne: user:notification, the :local aliases,
public:remote, list and direct; the notification, conversation and filters_changed
events; error frames that name their stream and leave the socket's others open."""

import json
import queue

import pytest
from mastodon.streaming import StreamListener
from websockets.sync.client import connect

from accounts.services import uid_for_login
from timeline.direct.services import start_conversation
from timeline.safety.services import set_muted_words

WAIT = 30


@pytest.fixture
def stream_url(daphne_server):
    return daphne_server.replace("http://", "ws://") + "/api/v1/streaming"


def opened(stream_url: str, client, query: str):
    """A socket whose stream (named in `query`) is open once it is connected."""
    return connect(f"{stream_url}?{query}&access_token={client.access_token}", open_timeout=10)


def next_frame(socket, wanted=lambda frame: True) -> dict:
    """The next frame `wanted` passes (others skipped)."""
    while True:
        frame = json.loads(socket.recv(timeout=WAIT))
        if wanted(frame):
            return frame


def event(name: str):
    return lambda frame: frame.get("event") == name


def test_user_notification_carries_notifications_and_no_statuses(mastodon_as, stream_url):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    with opened(stream_url, alice, "stream=user:notification") as socket:
        bob.account_follow(bob.account_lookup("alice").id)
        frame = next_frame(socket)
        assert (frame["stream"], frame["event"]) == (["user:notification"], "notification")
        followed = json.loads(frame["payload"])
        assert (followed["type"], followed["account"]["username"]) == ("follow", "bob")
        assert followed["status"] is None
        alice.status_post("my own status: on my home, not among my notifications")
        mention = bob.status_post("@alice look")
        # The next frame is the mention's: the status before it never came.
        frame = next_frame(socket)
        payload = json.loads(frame["payload"])
        assert (frame["event"], payload["type"]) == ("notification", "mention")
        assert payload["status"]["id"] == str(mention.id)


def test_the_user_stream_carries_notifications_and_filters_changed(mastodon_as, stream_url):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    with opened(stream_url, alice, "stream=user") as socket:
        bob.status_favourite(alice.status_post("like this").id)
        frame = next_frame(socket, event("notification"))
        assert frame["stream"] == ["user"]
        liked = json.loads(frame["payload"])
        assert (liked["type"], liked["account"]["acct"]) == ("favourite", "bob")
        set_muted_words(uid_for_login("alice"), "spoilers")
        frame = next_frame(socket, event("filters_changed"))
        assert frame == {"stream": ["user"], "event": "filters_changed"}


def test_another_users_filters_change_tells_nobody_else(mastodon_as, stream_url):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    mastodon_as("carol")
    with opened(stream_url, alice, "stream=user") as socket:
        set_muted_words(uid_for_login("carol"), "spoilers")
        bob.account_follow(bob.account_lookup("alice").id)
        # Alice's next event is her own notification: carol's change was not hers.
        assert next_frame(socket)["event"] == "notification"


def test_local_aliases_carry_the_public_and_tag_streams(mastodon_as, stream_url):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    with (
        opened(stream_url, alice, "stream=public:local") as public,
        opened(stream_url, alice, "stream=hashtag:local&tag=redis") as tagged,
        opened(stream_url, alice, "stream=public:remote") as remote,
    ):
        posted = bob.status_post("all about #redis")
        frame = next_frame(public)
        assert (frame["stream"], frame["event"]) == (["public:local"], "update")
        assert json.loads(frame["payload"])["id"] == str(posted.id)
        frame = next_frame(tagged)
        assert frame["stream"] == ["hashtag:local", "redis"]
        assert json.loads(frame["payload"])["id"] == str(posted.id)
        # Nothing is remote until the site federates; the stream stays open, silent.
        with pytest.raises(TimeoutError):
            remote.recv(timeout=2)


def test_a_list_stream_carries_its_members_statuses(mastodon_as, stream_url):
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    friends = alice.list_create("friends")
    alice.list_accounts_add(friends.id, [alice.account_lookup("bob").id])
    with opened(stream_url, alice, f"stream=list&list={friends.id}") as socket:
        carol.status_post("not on the list")
        posted = bob.status_post("for my listeners")
        frame = next_frame(socket)
        assert (frame["stream"], frame["event"]) == (["list", str(friends.id)], "update")
        assert json.loads(frame["payload"])["id"] == str(posted.id)


def test_no_such_list_is_refused_and_the_sockets_other_streams_go_on(mastodon_as, stream_url):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    with opened(stream_url, alice, "stream=public") as socket:
        socket.send(json.dumps({"type": "subscribe", "stream": "list", "list": "987654"}))
        error = next_frame(socket)
        assert error["status"] == 404 and error["stream"] == ["list", "987654"]
        posted = bob.status_post("still streaming")
        frame = next_frame(socket)
        assert frame["event"] == "update" and json.loads(frame["payload"])["id"] == str(posted.id)


def test_the_direct_stream_carries_conversations(mastodon_as, stream_url):
    alice, _ = mastodon_as("alice"), mastodon_as("bob")
    with opened(stream_url, alice, "stream=direct") as socket:
        conversation = start_conversation(uid_for_login("bob"), "alice", "psst, alice")
        frame = next_frame(socket)
        assert (frame["stream"], frame["event"]) == (["direct"], "conversation")
        found = json.loads(frame["payload"])
        assert found["id"] == str(conversation) and found["unread"] is True
        assert [account["username"] for account in found["accounts"]] == ["bob"]
        assert "psst, alice" in found["last_status"]["content"]


def test_bad_subscriptions_get_error_frames_naming_their_stream(mastodon_as, stream_url):
    alice = mastodon_as("alice")
    with opened(stream_url, alice, "stream=user") as socket:
        socket.send(json.dumps({"type": "subscribe", "stream": "nonsense"}))
        error = next_frame(socket)
        assert (error["status"], error["stream"]) == (400, ["nonsense"])
        assert "Unknown stream" in error["error"]
        socket.send(json.dumps({"type": "subscribe", "stream": "hashtag"}))
        assert next_frame(socket)["stream"] == ["hashtag"]
        socket.send(json.dumps({"type": "subscribe", "stream": "list", "list": "x"}))
        assert next_frame(socket)["stream"] == ["list", "x"]
        # Up to 4 streams a socket: user, then three more; the fifth is refused.
        for tag in ("a", "b", "c", "d"):
            socket.send(json.dumps({"type": "subscribe", "stream": "hashtag", "tag": tag}))
        error = next_frame(socket)
        assert (error["status"], error["stream"]) == (429, ["hashtag", "d"])
        # The socket, and its user stream, live on.
        posted = alice.status_post("still here")
        frame = next_frame(socket, event("update"))
        assert frame["stream"] == ["user"]
        assert json.loads(frame["payload"])["id"] == str(posted.id)


def test_a_stream_refused_in_the_url_says_which_before_the_close(mastodon_as, stream_url):
    alice = mastodon_as("alice")
    with opened(stream_url, alice, "stream=hashtag:local") as socket:
        error = json.loads(socket.recv(timeout=WAIT))
        assert (error["status"], error["stream"]) == (400, ["hashtag:local"])


class Notified(StreamListener):
    def __init__(self) -> None:
        self.events: queue.Queue = queue.Queue()

    def on_notification(self, notification):
        self.events.put(("notification", notification))

    def on_conversation(self, conversation):
        self.events.put(("conversation", conversation))


def test_mastodon_py_streams_notifications_and_conversations(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    listener = Notified()
    handle = alice.stream_open_websocket(listener)
    try:
        handle.subscribe("user:notification")
        handle.subscribe("direct")
        # A subscription by message has no answer: follow and unfollow until one comes.
        alice_id = bob.account_lookup("alice").id
        for _ in range(10):
            bob.account_follow(alice_id)
            try:
                kind, notification = listener.events.get(timeout=3)
                break
            except queue.Empty:
                bob.account_unfollow(alice_id)
        else:
            raise AssertionError("no notification came")
        assert (kind, notification.type, notification.account.username) == (
            "notification",
            "follow",
            "bob",
        )
        start_conversation(uid_for_login("bob"), "alice", "over Mastodon.py")
        kind, conversation = listener.events.get(timeout=WAIT)
        assert kind == "conversation"
        assert "over Mastodon.py" in conversation.last_status.content
    finally:
        handle.close()
