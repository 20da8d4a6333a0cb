"""Keep's buttons in Debian's Chromium against a real daphne server: bookmarking a card
and following a tag change the button where it is, without a reload."""

import pytest
from playwright.sync_api import Page, expect

from accounts import services as accounts
from timeline.posting import services as posting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def mark_page(page: Page) -> None:
    """A mark on the document that a reload or a navigation would lose."""
    page.evaluate("window.notReloaded = true")


def test_bookmarking_a_card_presses_its_button_in_place(signed_up_page, daphne_server):
    alice = accounts.create_user("alice", "Alice")
    status_id = posting.post_status(alice, "worth keeping")
    bob = signed_up_page("bob")
    bob.goto(f"{daphne_server}/timeline/")
    card = bob.locator(f'.status[data-status-id="{status_id}"]')
    mark_page(bob)
    card.get_by_role("button", name="Bookmark", exact=True).click()
    pressed = card.get_by_role("button", name="Remove bookmark", exact=True)
    expect(pressed).to_have_attribute("aria-pressed", "true")
    assert bob.evaluate("window.notReloaded") is True
    bob.goto(f"{daphne_server}/bookmarks/")
    expect(bob.locator(f'.status[data-status-id="{status_id}"]')).to_contain_text("worth keeping")
    bob.locator(".status").get_by_role("button", name="Remove bookmark", exact=True).click()
    expect(bob.get_by_role("button", name="Bookmark", exact=True)).to_be_visible()


def test_following_a_tag_changes_its_button_in_place(signed_up_page, daphne_server):
    bob = signed_up_page("bob")
    bob.goto(f"{daphne_server}/tags/redis/")
    mark_page(bob)
    bob.get_by_role("button", name="Follow #redis").click()
    expect(bob.get_by_role("button", name="Unfollow #redis")).to_be_visible()
    assert bob.evaluate("window.notReloaded") is True
    bob.reload()
    expect(bob.get_by_role("button", name="Unfollow #redis")).to_be_visible()
