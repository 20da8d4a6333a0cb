"""Polls in Debian's Chromium against a real daphne server: the card's options belong to
the page's one actions form, so only a browser shows that a vote sends its own poll's
choice (and not another card's), in place with JavaScript and by a plain POST without."""

import pytest
from playwright.sync_api import expect

from accounts import services as accounts
from timeline.polls import services as polls
from timeline.posting import services as posting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def two_polls() -> tuple[int, int]:
    alice = accounts.create_user("alice", "Alice")
    spec = polls.check_poll(["Tea", "Coffee", "Water"], 3600)
    first = posting.post_status(alice, "First poll", poll=spec)
    second = posting.post_status(alice, "Second poll", poll=spec)
    return first, second


def test_a_vote_in_place_sends_its_own_polls_choice(signed_up_page, daphne_server):
    first, second = two_polls()
    bob = signed_up_page("bob")
    bob.goto(f"{daphne_server}/timeline/")
    bob.evaluate("window.notReloaded = true")
    one = bob.locator(f'.status[data-status-id="{first}"]')
    other = bob.locator(f'.status[data-status-id="{second}"]')
    # A choice left checked on the other card must not travel with this vote.
    other.get_by_label("Tea").check()
    one.get_by_label("Water").check()
    one.get_by_role("button", name="Vote").click()
    expect(one).to_contain_text("Water Your choice 100%")
    expect(one).to_contain_text("1 person voted")
    expect(other.get_by_role("button", name="Vote")).to_be_visible()
    assert bob.evaluate("window.notReloaded") is True


def test_with_javascript_off_a_vote_posts_and_comes_back(browser, daphne_server):
    from socialsite.testing.browser import sign_up

    first, _ = two_polls()
    page = browser.new_context(java_script_enabled=False).new_page()
    sign_up(page, daphne_server, "bob")
    page.goto(f"{daphne_server}/timeline/")
    card = page.locator(f'.status[data-status-id="{first}"]')
    card.get_by_label("Coffee").check()
    card.get_by_role("button", name="Vote").click()
    expect(page.get_by_text("Voted.")).to_be_visible()
    card = page.locator(f'.status[data-status-id="{first}"]')
    expect(card).to_contain_text("Coffee Your choice 100%")
