"""Notifications and direct messages live, in two Chromium windows against a real
daphne server: what one user does shows on the other's open page without a reload."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_like_shows_in_the_badge_and_messages_appear_live_in_both_windows(
    signed_up_page, daphne_server
):
    alice, bob = signed_up_page("alice"), signed_up_page("bob")

    alice.get_by_label("Your status").fill("Like this, please")
    alice.get_by_role("button", name="Post").click()
    expect(alice.locator("body")).to_have_attribute("data-live", "on")
    badge = alice.locator("#nav-unread-notifications")
    expect(badge).to_be_hidden()

    bob.goto(f"{daphne_server}/u/alice/")
    bob.locator(".status", has_text="Like this, please").get_by_role("button", name="Like").click()
    expect(badge).to_have_text("1")
    expect(badge).to_be_visible()

    # On the open notifications page a new one appears, and is read as it arrives.
    alice.get_by_role("link", name="Notifications").click()
    expect(alice.locator("#notifications")).to_contain_text("@bob liked your status")
    expect(badge).to_be_hidden()
    expect(alice.locator("body")).to_have_attribute("data-live", "on")
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(alice.locator("#notifications li").first).to_have_text("@bob followed you")
    expect(badge).to_have_text("0")
    expect(badge).to_be_hidden()

    bob.goto(f"{daphne_server}/messages/")
    expect(bob.locator("body")).to_have_attribute("data-live", "on")
    alice.goto(f"{daphne_server}/messages/new/")
    alice.get_by_label("To", exact=True).fill("bob")
    alice.get_by_label("Message").fill("Hi <b>bob</b>!")
    alice.get_by_role("button", name="Send").click()
    alice_thread = alice.locator("#conversation")
    expect(alice_thread).to_contain_text("Hi <b>bob</b>!")

    # Bob's inbox gets the conversation, and his nav the count, as it is sent.
    row = bob.locator("#inbox li", has_text="@alice: Hi <b>bob</b>!")
    expect(row).to_be_visible()
    expect(bob.locator("#nav-unread-messages")).to_have_text("1")
    row.get_by_role("link").click()
    expect(bob.locator("#nav-unread-messages")).to_be_hidden()
    expect(bob.locator("body")).to_have_attribute("data-live", "on")
    expect(alice.locator("body")).to_have_attribute("data-live", "on")

    bob.get_by_label("Message").fill("Hello alice")
    bob.get_by_role("button", name="Send").click()
    expect(alice_thread.locator(".dm").last).to_contain_text("Hello alice")

    expect(bob.locator("body")).to_have_attribute("data-live", "on")
    alice.get_by_label("Message").fill("See you soon")
    alice.get_by_role("button", name="Send").click()
    expect(bob.locator("#conversation .dm").last).to_contain_text("See you soon")
    # Read as it arrived in the open conversation: no unread count.
    expect(bob.locator("#nav-unread-messages")).to_have_text("0")
    expect(bob.locator("#nav-unread-messages")).to_be_hidden()
