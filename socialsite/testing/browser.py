"""Debian's Chromium for the browser tests, through Playwright, and the steps they
share: signing up and logging in on a page."""

from playwright.sync_api import Page, expect

CHROMIUM = "/usr/bin/chromium"
# Headless on a machine without internet: without these it keeps trying (and failing)
# to reach Google's services, and the sandbox needs privileges CI doesn't have.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(playwright):
    """A headless Chromium browser from a running `sync_playwright()`."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


PASSWORD = "a-long-pass-4-tests"


def sign_up(page: Page, base_url: str, login: str) -> None:
    """Signs `login` up on `page` (with PASSWORD), which ends on their home page."""
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Login").fill(login)
    page.get_by_label("Display name").fill(login.title())
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text(f"Welcome, @{login}!")).to_be_visible()


def log_in(page: Page, base_url: str, login: str, password: str = PASSWORD) -> None:
    """Logs `login` in on `page` with the login form."""
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Login").fill(login)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    # The nav's Profile tab: shown signed in at every width (Log out is in a phone's More menu).
    expect(page.get_by_role("link", name="Profile", exact=True)).to_be_visible()
