"""The live home timeline in Chromium, against the real daphne server."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from accounts.services import create_user, sign_up, uid_for_login
from timeline.services import delete_status, follow_user, post_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Until the site's pages (the pages branch) are merged, there is no page to test here.
if not (settings.BASE_DIR / "templates" / "base.html").exists():
    pytest.skip("needs the site's pages (the pages branch)", allow_module_level=True)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def test_the_home_page_shows_followed_users_new_statuses_and_drops_deleted_ones(daphne_server):
    # Everything that touches the ORM happens before Playwright starts its event loop.
    client = Client()
    client.force_login(sign_up("reader", "a long password 123", "Reader"))
    session = client.cookies["sessionid"].value
    reader, writer = uid_for_login("reader"), create_user("writer", "Writer")
    stranger = create_user("stranger", "Stranger")
    follow_user(reader, writer)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": session, "url": daphne_server}])
        page = context.new_page()
        page.goto(f"{daphne_server}/")
        timeline = page.locator("#timeline")
        expect(timeline).to_have_attribute("data-live", "on")

        unfollowed = post_status(stranger, "not for the reader")
        first = post_status(writer, "hello, <b>live</b> readers")
        status = timeline.locator(f'[data-status-id="{first}"]')
        expect(status).to_contain_text("hello, <b>live</b> readers")
        expect(page.locator(".new-statuses")).to_have_text("1 new status")
        own = post_status(reader, "my own words")
        expect(timeline.locator("[data-status-id]").first).to_have_attribute(
            "data-status-id", str(own)
        )
        expect(page.locator(".new-statuses")).to_have_text("2 new statuses")
        assert timeline.locator(f'[data-status-id="{unfollowed}"]').count() == 0

        delete_status(writer, first)
        expect(status).to_have_count(0)
        expect(page.locator(".new-statuses")).to_have_text("1 new status")
        page.locator(".new-statuses").click()
        expect(page.locator(".new-statuses")).to_be_hidden()
        browser.close()
