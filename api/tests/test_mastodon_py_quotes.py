"""Quotes as the Mastodon.py library uses them against a real daphne (Mastodon 4.5):
posting a quote, reading its quote and quote approval, a status's quotes, revoking, and
changing a status's quote policy."""

import pytest
from mastodon import MastodonAPIError


def test_an_app_quotes_lists_revokes_and_sets_the_policy(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    original = bob.status_post("quote me, please", quote_approval_policy="public")
    assert original.quote_approval.automatic == ["public"]
    quote = alice.status_post("done", quoted_status_id=original.id)
    assert quote.quote.state == "accepted"
    assert quote.quote.quoted_status.id == original.id
    assert quote.quote.quoted_status.account.username == "bob"
    assert bob.status(original.id).quotes_count == 1
    assert [s.id for s in bob.status_quotes(original.id)] == [quote.id]
    (note,) = bob.notifications()
    assert note.type == "quote" and note.status.id == quote.id
    revoked = bob.status_quote_revoke(original.id, quote.id)
    assert revoked.id == quote.id and revoked.quote.state == "revoked"
    assert revoked.quote.quoted_status is None
    assert bob.status(original.id).quotes_count == 0
    closed = bob.status_update_quote_approval_policy(original.id, "nobody")
    assert closed.quote_approval.automatic == []
    with pytest.raises(MastodonAPIError):
        alice.status_post("again", quoted_status_id=original.id)
    assert [s.id for s in alice.account_statuses(alice.me().id)] == [quote.id]
