"""Private accounts and blocks in Debian's Chromium, against a real daphne server."""

import pytest
from playwright.sync_api import Page, expect


def post(page: Page, message: str) -> None:
    page.get_by_label("Your status").fill(message)
    page.get_by_role("button", name="Post").click()
    expect(page.get_by_text("Posted.")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_approved_follower_sees_private_statuses_until_a_block(signed_up_page, daphne_server):
    alice, bob = signed_up_page("alice"), signed_up_page("bob")

    alice.goto(f"{daphne_server}/accounts/settings/#settings-privacy")
    alice.get_by_label("Private account").check()
    alice.get_by_role("button", name="Save privacy settings").click()
    expect(alice.get_by_text("Your account is private")).to_be_visible()
    alice.goto(f"{daphne_server}/")
    post(alice, "Only for my followers")
    post(bob, "Bob says hi")

    bob.goto(f"{daphne_server}/u/alice/")
    expect(bob.locator("#private-notice")).to_be_visible()
    expect(bob.get_by_text("Only for my followers")).to_have_count(0)
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Requested · cancel")).to_be_visible()

    alice.goto(f"{daphne_server}/follow-requests/")
    alice.get_by_role("button", name="Approve").click()
    expect(alice.get_by_text("@bob now follows you.")).to_be_visible()
    bob.goto(f"{daphne_server}/")
    expect(bob.locator("#timeline")).to_contain_text("Only for my followers")
    alice.goto(f"{daphne_server}/u/bob/")
    alice.get_by_role("button", name="Follow", exact=True).click()
    expect(alice.get_by_role("button", name="Unfollow")).to_be_visible()
    alice.goto(f"{daphne_server}/")
    expect(alice.locator("#timeline")).to_contain_text("Bob says hi")

    alice.goto(f"{daphne_server}/u/bob/")
    # Block asks first; then, in place, Unblock stands where Block was (an undo).
    alice.locator(".profile-safety summary", has_text="Block").click()
    alice.get_by_role("button", name="Block @bob").click()
    expect(alice.get_by_text("You block @bob.")).to_be_visible()
    expect(alice.get_by_role("button", name="Unblock")).to_be_visible()
    alice.goto(f"{daphne_server}/")
    expect(alice.get_by_text("Bob says hi")).to_have_count(0)
    bob.goto(f"{daphne_server}/")
    expect(bob.get_by_text("Only for my followers")).to_have_count(0)
    bob.goto(f"{daphne_server}/u/alice/")
    expect(bob.locator("#blocked-notice")).to_be_visible()
