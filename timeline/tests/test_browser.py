"""The whole site in Debian's Chromium, against a real daphne server."""

import pytest
from playwright.sync_api import Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "a-long-pass-4-tests"


def sign_up(page: Page, base_url: str, login: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Login").fill(login)
    page.get_by_label("Display name").fill(login.title())
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text(f"Welcome, @{login}!")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_follower_sees_a_post_on_home_until_they_unfollow(daphne_server):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # Two contexts: two people with their own cookies.
        alice = browser.new_context().new_page()
        bob = browser.new_context().new_page()
        sign_up(alice, daphne_server, "alice")
        sign_up(bob, daphne_server, "bob")

        alice.get_by_label("Your status").fill("Hello from <alice> to @bob")
        alice.get_by_role("button", name="Post").click()
        expect(alice.get_by_text("Posted.")).to_be_visible()
        expect(alice.locator("#timeline")).to_contain_text("Hello from <alice> to @bob")

        bob.goto(f"{daphne_server}/")
        expect(bob.locator("#timeline")).not_to_contain_text("Hello from")
        bob.goto(f"{daphne_server}/u/alice/")
        bob.get_by_role("button", name="Follow", exact=True).click()
        expect(bob.get_by_text("You now follow @alice.")).to_be_visible()
        bob.get_by_role("link", name="Home").click()
        post = bob.locator("#timeline .status", has_text="Hello from <alice> to @bob")
        expect(post).to_be_visible()
        expect(post.get_by_role("link", name="@bob")).to_have_attribute("href", "/u/bob/")

        bob.goto(f"{daphne_server}/u/alice/")
        bob.get_by_role("button", name="Unfollow").click()
        expect(bob.get_by_text("You no longer follow @alice.")).to_be_visible()
        bob.get_by_role("link", name="Home").click()
        expect(bob.locator("#timeline")).not_to_contain_text("Hello from")
        browser.close()
