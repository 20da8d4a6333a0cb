"""Edits as the Mastodon.py library makes them, against a real daphne: status_update,
status_history and status_source, and the update notification."""

import pytest
from mastodon import MastodonAPIError


def test_status_update_edits_and_the_history_and_source_follow(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    posted = alice.status_post("Helo from #mastodon")
    bob.status_favourite(posted.id)
    edited = alice.status_update(
        posted.id, "Hello from #mastodon", spoiler_text="typo fixed", sensitive=True
    )
    assert edited.id == posted.id and "Hello" in edited.content
    assert edited.edited_at is not None
    assert bob.status(posted.id).edited_at is not None
    history = bob.status_history(posted.id)
    assert ["Helo" in v.content for v in history] == [True, False]
    assert history[-1].spoiler_text == "typo fixed" and history[-1].sensitive is True
    source = alice.status_source(posted.id)
    assert source.text == "Hello from #mastodon" and source.spoiler_text == "typo fixed"
    assert [n.type for n in bob.notifications() if n.type == "update"] == ["update"]


def test_status_update_of_someone_elses_status_is_refused(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    posted = alice.status_post("mine")
    with pytest.raises(MastodonAPIError):
        bob.status_update(posted.id, "theirs")
    assert "mine" in alice.status(posted.id).content


def test_the_user_stream_sends_an_edit_as_status_update(mastodon_as):
    from .test_streaming import WAIT, Collected, next_update

    class WithEdits(Collected):
        def on_status_update(self, status):
            self.events.put(("status.update", status))

    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    alice.account_follow(alice.account_lookup("bob").id)
    listener = WithEdits()
    handle = alice.stream_open_websocket(listener)
    try:
        handle.subscribe("user")
        posted, _ = next_update(listener, bob, "streamed, then edited")
        bob.status_update(posted.id, "streamed, and edited")
        while True:
            kind, payload = listener.events.get(timeout=WAIT)
            if kind == "status.update":
                break
        assert payload.id == posted.id and "and edited" in payload.content
        assert payload.edited_at is not None
    finally:
        handle.close()
