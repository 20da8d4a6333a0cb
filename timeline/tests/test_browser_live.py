"""Live everywhere, in Chromium against the real daphne server: every timeline page
(global, a tag, a list, a profile, mentions, a status's replies) counts its new statuses
live and shows them, drops a deleted one, and never shows a reader what the one rule
hides from them (a private account's status, a blocker's)."""

import contextlib

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from accounts.services import create_user, sign_up, uid_for_login
from socialsite.testing.browser import launch_chromium
from timeline.graph.services import approve_follower, follow_user
from timeline.lists import services as lists
from timeline.posting.services import delete_status, post_status
from timeline.safety import services as safety

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def session_of(login: str) -> str:
    """A signed-up `login`'s session cookie (made before Playwright's event loop starts)."""
    client = Client()
    client.force_login(sign_up(login, "a long password 123", login.title()))
    return client.cookies["sessionid"].value


@contextlib.contextmanager
def chromium(daphne_server: str):
    """`open_page(session, path)`: Chromium on `path`, logged in with the `session`
    cookie, its live timeline open (each page a context of its own, in one browser)."""
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)

        def open_page(session: str, path: str):
            context = browser.new_context()
            context.add_cookies([{"name": "sessionid", "value": session, "url": daphne_server}])
            page = context.new_page()
            page.goto(f"{daphne_server}{path}")
            expect(page.locator("#timeline")).to_have_attribute("data-live", "on")
            return page

        yield open_page
        browser.close()


@contextlib.contextmanager
def page_at(daphne_server: str, session: str, path: str):
    with chromium(daphne_server) as open_page:
        yield open_page(session, path)


def card(page, status_id: int):
    return page.locator(f'#timeline [data-status-id="{status_id}"]')


# Each page kind: its path (given the writer's uid, the reader's list and a status to
# answer), a status it doesn't hold, and one it does.
PAGES = {
    "global": ("/timeline/", None, "for everyone"),
    "tag": ("/tags/knit/", "no tag here", "socks #Knit"),
    "list": ("/lists/{list}/", "from outside the list", "from a member"),
    "profile": ("/u/walt/", "someone else", "walt speaking"),
    "mentions": ("/u/dora/mentions/", "no mention", "hello @dora"),
    "replies": ("/statuses/{root}/", "a status of its own", "an answer"),
}


@pytest.mark.parametrize("kind", list(PAGES))
def test_every_timeline_page_counts_and_shows_its_new_statuses_live(daphne_server, kind):
    session = session_of("dora")
    reader, writer = uid_for_login("dora"), create_user("walt", "Walt")
    other = create_user("eve", "Eve")
    members = lists.create_list(reader, "Knitters")
    lists.add_member(reader, members, writer)
    root = post_status(other, "a question")
    path, unheld, held = PAGES[kind]

    with page_at(daphne_server, session, path.format(list=members, root=root)) as page:
        if unheld:
            post_status(other if kind in ("list", "profile") else writer, unheld)
        answer = {"in_reply_to": root} if kind == "replies" else {}
        first = post_status(writer, held, **answer)
        expect(card(page, first)).to_contain_text(held)
        expect(page.locator(".new-statuses")).to_have_text("1 new status")
        second = post_status(writer, f"{held} again", **answer)
        expect(card(page, second)).to_be_visible()
        expect(page.locator(".new-statuses")).to_have_text("2 new statuses")
        # Newest first; a status's replies oldest first, as the page reads them.
        order = [first, second] if kind == "replies" else [second, first]
        ids = page.locator("#timeline [data-status-id]")
        expect(ids.nth(0)).to_have_attribute("data-status-id", str(order[0]))
        expect(ids.nth(1)).to_have_attribute("data-status-id", str(order[1]))
        expect(page.locator("#timeline")).not_to_contain_text(unheld or "nothing else")
        delete_status(writer, first)
        expect(card(page, first)).to_have_count(0)
        expect(page.locator(".new-statuses")).to_have_text("1 new status")
        page.locator(".new-statuses").click()
        expect(page.locator(".new-statuses")).to_be_hidden()


def test_a_private_accounts_status_reaches_its_followers_page_and_no_one_elses(daphne_server):
    follower, stranger = session_of("dora"), session_of("eve")
    author, friend = create_user("priv", "Priv"), create_user("walt", "Walt")
    safety.set_private(author, True)
    follow_user(uid_for_login("dora"), author)
    approve_follower(author, uid_for_login("dora"))

    with chromium(daphne_server) as open_page:
        theirs = open_page(follower, "/u/priv/")
        tag = open_page(stranger, "/tags/knit/")
        global_page = open_page(follower, "/timeline/")
        secret = post_status(author, "for followers #knit")
        public = post_status(friend, "for everyone #knit")
        expect(card(theirs, secret)).to_contain_text("for followers")
        expect(card(tag, public)).to_be_visible()
        expect(card(global_page, public)).to_be_visible()
        # Not on global (even for a follower), not for a stranger.
        expect(card(tag, secret)).to_have_count(0)
        expect(card(global_page, secret)).to_have_count(0)
        expect(tag.locator(".new-statuses")).to_have_text("1 new status")
        expect(global_page.locator(".new-statuses")).to_have_text("1 new status")


def test_a_blockers_statuses_never_reach_the_blocked_readers_pages(daphne_server):
    session = session_of("dora")
    reader, pest = uid_for_login("dora"), create_user("pest", "Pest")
    friend = create_user("walt", "Walt")

    with chromium(daphne_server) as open_page:
        global_page = open_page(session, "/timeline/")
        mentions = open_page(session, "/u/dora/mentions/")
        safety.block(pest, reader)  # while the pages are open
        hidden = post_status(pest, "@dora from the blocker")
        shown = post_status(friend, "@dora from a friend")
        for page in (global_page, mentions):
            expect(card(page, shown)).to_be_visible()
            expect(card(page, hidden)).to_have_count(0)
            expect(page.locator(".new-statuses")).to_have_text("1 new status")
