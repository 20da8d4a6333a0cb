"""Debian's Chromium for the browser tests, through Playwright."""

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
