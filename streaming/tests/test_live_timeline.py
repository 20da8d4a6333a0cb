"""The live home timeline in Chromium, against the real daphne server."""

import contextlib
import re
import time

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from accounts.services import create_user, sign_up, uid_for_login
from socialsite.testing.browser import launch_chromium
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@contextlib.contextmanager
def live_home(daphne_server: str, session: str):
    """Chromium on the home page, logged in with the `session` cookie."""
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": session, "url": daphne_server}])
        page = context.new_page()
        page.goto(f"{daphne_server}/")
        yield page
        browser.close()


def test_the_home_page_shows_followed_users_new_statuses_and_drops_deleted_ones(daphne_server):
    # Everything that touches the ORM happens before Playwright starts its event loop.
    client = Client()
    client.force_login(sign_up("reader", "a long password 123", "Reader"))
    session = client.cookies["sessionid"].value
    reader, writer = uid_for_login("reader"), create_user("writer", "Writer")
    stranger = create_user("stranger", "Stranger")
    follow_user(reader, writer)

    with live_home(daphne_server, session) as page:
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
        # Fan-out's reply rule: the reader follows the writer, not whom the writer answers.
        reply = post_status(writer, "@stranger no", in_reply_to=unfollowed)
        later = post_status(reader, "after the reply")
        expect(timeline.locator("[data-status-id]").first).to_have_attribute(
            "data-status-id", str(later)
        )
        assert timeline.locator(f'[data-status-id="{reply}"]').count() == 0
        expect(page.locator(".new-statuses")).to_have_text("3 new statuses")

        delete_status(writer, first)
        expect(status).to_have_count(0)
        expect(page.locator(".new-statuses")).to_have_text("2 new statuses")
        page.locator(".new-statuses").click()
        expect(page.locator(".new-statuses")).to_be_hidden()


def wait_for(page, condition, timeout: float = 20) -> None:
    """Lets Playwright handle events (such as routed requests) until `condition()` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(20)


def test_posting_on_the_live_home_page_still_shows_the_posted_message(daphne_server):
    client = Client()
    client.force_login(sign_up("poster", "a long password 123", "Poster"))
    session = client.cookies["sessionid"].value

    with live_home(daphne_server, session) as page:
        expect(page.locator("#timeline")).to_have_attribute("data-live", "on")
        # The page a status is posted from hears it live and fetches it while the browser
        # follows the post's redirect home. Made certain here rather than left to chance:
        # the post is sent on the page's behalf, then the live fetch goes (with "Posted."
        # waiting in the cookies), and only once it is answered does the page go home.
        posts, fetches = [], []
        page.route(f"{daphne_server}/statuses/", lambda route: posts.append(route))
        page.route(re.compile(r"/statuses/[0-9]+/"), lambda route: fetches.append(route))
        page.fill("textarea[name=message]", "hello, live home")
        page.get_by_role("button", name="Post", exact=True).click(no_wait_after=True)
        wait_for(page, lambda: posts)
        posted = posts[0].fetch(max_redirects=0)
        assert posted.status == 302
        wait_for(page, lambda: fetches)
        with page.expect_response(lambda response: response.request == fetches[0].request):
            fetches[0].continue_()
        # Without the Set-Cookie that fetch() has already applied: it would bring back the
        # messages the live fetch may have used up.
        posts[0].fulfill(status=302, headers={"Location": posted.headers["location"]})
        expect(page.locator(".messages")).to_have_text("Posted.")
        expect(page.locator("#timeline [data-status-id]")).to_contain_text("hello, live home")
