"""Quotes' pages: the nested quote on cards, the quote composer and posting from it,
a status's quotes page and detaching, the quote policy setting; refusals, bad input and
the rate limit."""

import pytest
from django.test import override_settings
from django.urls import reverse

from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.quotes import services as quotes
from timeline.safety import services as safety
from timeline.statuses.selectors import get_status
from timeline.tests.pages import page_text, shows, status_ids


def test_a_quote_shows_the_quoted_status_nested_in_its_card(client, alice, bob):
    quoted = posting.post_status(bob.uid, "the original words")
    quote = posting.post_status(alice.uid, "my take", quote_id=quoted)
    response = client.get(reverse("status", args=[quote]))
    text = page_text(response)
    assert '<blockquote class="status-quoted"' in text
    assert shows(response, "my take") and shows(response, "the original words")
    assert f'href="/statuses/{quoted}/"' in text
    # The quoted status's card counts its quote and links to its quotes.
    response = client.get(reverse("status", args=[quoted]))
    assert shows(response, "1 quote")
    assert f'href="/statuses/{quoted}/quotes/"' in page_text(response)


def test_a_quote_of_a_deleted_or_hidden_status_says_it_is_unavailable(alice, bob, make_user):
    carol = make_user("carol")
    quoted = posting.post_status(bob.uid, "secret soon")
    quote = posting.post_status(alice.uid, "look", quote_id=quoted)
    safety.block(bob.uid, carol.uid)
    response = carol.client.get(reverse("status", args=[quote]))
    assert shows(response, "The quoted status is unavailable.")
    assert not shows(response, "secret soon")
    # The same card, for another viewer, shows it: the card is kept per what it shows.
    assert shows(alice.client.get(reverse("status", args=[quote])), "secret soon")
    posting.delete_status(bob.uid, quoted)
    response = alice.client.get(reverse("profile", args=["alice"]))
    assert status_ids(response) == [quote]
    assert shows(response, "The quoted status is unavailable.")


def test_the_quote_composer_posts_a_quote(alice, bob):
    quoted = posting.post_status(bob.uid, "say it again")
    page = alice.client.get(reverse("quote", args=[quoted]))
    assert page.status_code == 200
    assert f'name="quote_id" value="{quoted}"' in page_text(page)
    assert shows(page, "say it again")
    response = alice.client.post(reverse("post_status"), {"message": "again!", "quote_id": quoted})
    assert response.status_code == 302
    (quote,) = feeds.get_status_messages(alice.uid, "profile")
    assert quote["quote_of"] == quoted and quote["quoted"]["message"] == "say it again"


def test_the_quote_composer_refuses_what_may_not_be_quoted(alice, bob, client):
    quotes.set_default_policy(bob.uid, "nobody")
    closed = posting.post_status(bob.uid, "mine")
    assert alice.client.get(reverse("quote", args=[closed])).status_code == 403
    assert alice.client.get(reverse("quote", args=[999])).status_code == 404
    response = alice.client.post(reverse("post_status"), {"message": "hm", "quote_id": closed})
    assert response.status_code == 403
    response = alice.client.post(reverse("post_status"), {"message": "hm", "quote_id": "x"})
    assert response.status_code == 404
    assert feeds.get_status_messages(alice.uid, "profile") == []
    # Visitors log in first.
    assert client.get(reverse("quote", args=[closed])).status_code == 302


def test_a_bad_message_on_the_quote_composer_shows_it_again_with_the_error(alice, bob):
    quoted = posting.post_status(bob.uid, "quote me")
    response = alice.client.post(reverse("post_status"), {"message": " ", "quote_id": quoted})
    assert response.status_code == 400
    assert f'name="quote_id" value="{quoted}"' in page_text(response)
    assert shows(response, "A status can't be empty.")


def test_the_card_offers_quote_only_where_the_policy_may_allow_it(alice, bob):
    open_status = posting.post_status(bob.uid, "quote freely")
    quotes.set_default_policy(bob.uid, "nobody")
    closed = posting.post_status(bob.uid, "do not quote")
    assert f'href="/statuses/{open_status}/quote/"' in page_text(
        alice.client.get(reverse("status", args=[open_status]))
    )
    assert f'href="/statuses/{closed}/quote/"' not in page_text(
        alice.client.get(reverse("status", args=[closed]))
    )


def test_the_quoted_author_detaches_their_status_from_the_quotes_page(alice, bob):
    quoted = posting.post_status(bob.uid, "mine")
    quote = posting.post_status(alice.uid, "theirs", quote_id=quoted)
    page = bob.client.get(reverse("status_quotes", args=[quoted]))
    revoke = reverse("revoke_quote", args=[quoted, quote])
    assert quote in status_ids(page) and f'action="{revoke}"' in page_text(page)
    # Not to others.
    assert f'action="{revoke}"' not in page_text(
        alice.client.get(reverse("status_quotes", args=[quoted]))
    )
    assert alice.client.post(revoke).status_code == 403
    assert get_status(quote).get("quote_state") is None
    response = bob.client.post(revoke, follow=True)
    assert shows(response, "Your status is removed from that quote.")
    assert get_status(quote)["quote_state"] == "revoked"
    card = alice.client.get(reverse("status", args=[quote]))
    assert shows(card, "@bob removed their status from this quote.")
    assert bob.client.post(reverse("revoke_quote", args=[quoted, 999])).status_code == 404


@override_settings(RATE_LIMITS={"reactions": (1, 600)})
def test_detaching_is_rate_limited(alice, bob):
    quoted = posting.post_status(bob.uid, "mine")
    first = posting.post_status(alice.uid, "a", quote_id=quoted)
    second = posting.post_status(alice.uid, "b", quote_id=quoted)
    assert bob.client.post(reverse("revoke_quote", args=[quoted, first])).status_code == 302
    response = bob.client.post(reverse("revoke_quote", args=[quoted, second]))
    assert response.status_code == 429 and response["Retry-After"]
    assert get_status(second).get("quote_state") is None


def test_the_settings_page_sets_who_may_quote_new_statuses(alice, bob):
    page = alice.client.get(reverse("accounts:settings"))
    assert 'name="quote_policy" value="public" checked' in page_text(page)
    response = alice.client.post(reverse("quote_policy"), {"quote_policy": "followers"})
    assert response.status_code == 302
    assert quotes.default_policy(alice.uid) == "followers"
    page = alice.client.get(reverse("accounts:settings"))
    assert 'name="quote_policy" value="followers" checked' in page_text(page)
    status = posting.post_status(alice.uid, "followers may quote")
    assert bob.client.get(reverse("quote", args=[status])).status_code == 403
    graph.follow_user(bob.uid, alice.uid)
    assert bob.client.get(reverse("quote", args=[status])).status_code == 200


@pytest.mark.parametrize("value", ["", "friends", "PUBLIC"])
def test_a_bad_quote_policy_is_400_and_changes_nothing(alice, value):
    quotes.set_default_policy(alice.uid, "nobody")
    response = alice.client.post(reverse("quote_policy"), {"quote_policy": value})
    assert response.status_code == 400
    assert quotes.default_policy(alice.uid) == "nobody"


def test_the_quoted_author_sees_the_quote_in_notifications(alice, bob):
    quoted = posting.post_status(bob.uid, "hear me")
    posting.post_status(alice.uid, "heard", quote_id=quoted)
    response = bob.client.get(reverse("notifications"))
    assert shows(response, "@alice quoted your status")
    assert shows(response, "heard") and shows(response, "hear me")
