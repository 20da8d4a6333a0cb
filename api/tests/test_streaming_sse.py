"""Mastodon's streams over HTTP as server-sent events (/api/v1/streaming/<stream>), as
Mastodon.py's HTTP streaming and a plain HTTP client read them from daphne."""

import json
import queue

import pytest
import requests
from mastodon.streaming import StreamListener

from accounts.services import uid_for_login
from socialsite.redis import get_redis
from streaming.tests.clients import wait_for_no_streams
from timeline.direct.services import start_conversation
from timeline.safety.services import set_muted_words

WAIT = 30
PROBES, PROBE_WAIT = 10, 3


@pytest.fixture
def sse(daphne_server):
    """Opens `path` under /api/v1/streaming/ as `client`: the response, streaming."""
    opened = []

    def open_stream(client, path: str, **options) -> requests.Response:
        headers = {"Authorization": f"Bearer {client.access_token}"} if client else {}
        response = requests.get(
            f"{daphne_server}/api/v1/streaming/{path}",
            headers=headers,
            stream=True,
            timeout=(10, WAIT),
            **options,
        )
        opened.append(response)
        return response

    yield open_stream
    for response in opened:
        response.close()
    # The next test starts with the server's streams all closed.
    wait_for_no_streams(get_redis())


def events(response: requests.Response):
    """The response's server-sent events as (event, data), and its comments as
    (":", text), in order."""
    fields: dict = {}
    for line in response.iter_lines(chunk_size=1, decode_unicode=True):
        if line.startswith(":"):
            yield ":", line[1:]
        elif line:
            name, _, value = line.partition(": ")
            fields[name] = value
        elif fields:
            yield fields.get("event"), fields.get("data")
            fields = {}


def next_event(found, name: str) -> str:
    """The data of the next event called `name` (others skipped)."""
    for event, data in found:
        if event == name:
            return data
    raise AssertionError(f"the stream ended before a {name!r} event")


def test_a_public_stream_is_an_event_stream_of_updates_and_deletes(mastodon_as, sse):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    response = sse(alice, "public/local")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert "no-store" in response.headers["Cache-Control"]
    found = events(response)
    # Mastodon's first line, sent once the stream is open.
    assert next(found) == (":", ")")
    posted = bob.status_post("over server-sent events")
    assert json.loads(next_event(found, "update"))["id"] == str(posted.id)
    bob.status_delete(posted.id)
    assert next_event(found, "delete") == str(posted.id)


def test_the_tag_list_and_notification_streams_by_path(mastodon_as, sse):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    friends = alice.list_create("friends")
    alice.list_accounts_add(friends.id, [alice.account_lookup("bob").id])
    tagged = events(sse(alice, "hashtag/local?tag=redis"))
    listed = events(sse(alice, f"list?list={friends.id}"))
    notified = events(sse(alice, "user/notification"))
    for found in (tagged, listed, notified):
        assert next(found) == (":", ")")
    posted = bob.status_post("@alice #redis news")
    assert json.loads(next_event(tagged, "update"))["id"] == str(posted.id)
    assert json.loads(next_event(listed, "update"))["id"] == str(posted.id)
    mention = json.loads(next_event(notified, "notification"))
    assert (mention["type"], mention["status"]["id"]) == ("mention", str(posted.id))


def test_refusals_are_json_with_their_status(mastodon_as, sse, daphne_server):
    alice = mastodon_as("alice")
    cases = [
        (None, "user", 401),
        (alice, "nonsense", 404),
        (alice, "user/nonsense", 404),
        (alice, "hashtag", 400),
        (alice, "hashtag?tag=no%20spaces", 400),
        (alice, "list", 400),
        (alice, "list?list=987654", 404),
    ]
    for client, path, status in cases:
        response = sse(client, path)
        assert response.status_code == status, path
        assert response.headers["Content-Type"].startswith("application/json")
        assert response.json()["error"]
    token = {"Authorization": f"Bearer {alice.access_token}"}
    posted = requests.post(f"{daphne_server}/api/v1/streaming/user", headers=token, timeout=WAIT)
    assert (posted.status_code, posted.headers["Allow"]) == (405, "GET")
    assert "error" in posted.json()
    health = requests.get(f"{daphne_server}/api/v1/streaming/health", timeout=WAIT)
    assert (health.status_code, health.text) == (200, "OK")


def test_a_token_without_read_is_refused(mastodon_as, sse):
    writer = mastodon_as("alice", scopes=("write",))
    response = sse(writer, "user")
    assert response.status_code == 403 and "scopes" in response.json()["error"]


class Collected(StreamListener):
    def __init__(self) -> None:
        self.events: queue.Queue = queue.Queue()

    def on_update(self, status):
        self.events.put(("update", status))

    def on_notification(self, notification):
        self.events.put(("notification", notification))

    def on_conversation(self, conversation):
        self.events.put(("conversation", conversation))


def until_open(listener: Collected, poster, text: str):
    """Posts until the stream (opened in the background) carries the post: it is open."""
    for number in range(PROBES):
        posted = poster.status_post(f"{text} {number}")
        try:
            while True:
                kind, payload = listener.events.get(timeout=PROBE_WAIT)
                if kind == "update" and payload.id == posted.id:
                    return posted
        except queue.Empty:
            continue
    raise AssertionError("the stream never opened")


def test_mastodon_py_stream_user_over_http(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    listener = Collected()
    handle = alice.stream_user(listener, run_async=True)
    try:
        until_open(listener, alice, "my own, over HTTP")
        bob.account_follow(bob.account_lookup("alice").id)
        kind, notification = listener.events.get(timeout=WAIT)
        assert (kind, notification.type, notification.account.username) == (
            "notification",
            "follow",
            "bob",
        )
    finally:
        handle.close()


def test_mastodon_py_hashtag_and_direct_streams_over_http(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    tagged, direct = Collected(), Collected()
    tag_handle = alice.stream_hashtag("redis", tagged, local=True, run_async=True)
    direct_handle = alice.stream_direct(direct, run_async=True)
    try:
        # Mastodon.py sends the tag as a form body of its GET.
        until_open(tagged, bob, "#redis probe")
        for _ in range(PROBES):
            start_conversation(uid_for_login("bob"), "alice", "psst over HTTP")
            try:
                kind, conversation = direct.events.get(timeout=PROBE_WAIT)
                break
            except queue.Empty:
                continue
        else:
            raise AssertionError("no conversation event")
        assert kind == "conversation"
        assert [account.username for account in conversation.accounts] == ["bob"]
    finally:
        tag_handle.close()
        direct_handle.close()


def test_the_event_streams_follow_the_one_visibility_rule(mastodon_as, sse):
    alice, bob, carol = mastodon_as("alice"), mastodon_as("bob"), mastodon_as("carol")
    carol.account_update_credentials(locked=True)
    alice.account_block(alice.account_lookup("bob").id)
    public = events(sse(alice, "public/local"))
    assert next(public) == (":", ")")
    hidden = [carol.status_post("followers only"), bob.status_post("from the blocked")]
    probe = mastodon_as("dave").status_post("a public probe")
    # Each stream relays in order: the probe came, and nothing hidden before it.
    seen = []
    for event, data in public:
        if event == "update":
            seen.append(json.loads(data)["id"])
            if seen[-1] == str(probe.id):
                break
    assert not {str(status.id) for status in hidden} & set(seen)


def test_the_user_event_stream_carries_edits_and_filter_changes(mastodon_as, sse):
    alice = mastodon_as("alice")
    home = events(sse(alice, "user"))
    assert next(home) == (":", ")")
    posted = alice.status_post("first words")
    assert json.loads(next_event(home, "update"))["id"] == str(posted.id)
    alice.status_update(posted.id, status="better words")
    edited = json.loads(next_event(home, "status.update"))
    assert edited["id"] == str(posted.id) and "better words" in edited["content"]
    set_muted_words(uid_for_login("alice"), "spoilers")
    assert next_event(home, "filters_changed") == "undefined"
