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
