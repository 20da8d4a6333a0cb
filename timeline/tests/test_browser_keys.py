"""Infinite scroll and keyboard shortcuts, in Chromium against the real daphne server:
older pages load in place near the bottom (the pager's links stay for no-JS), and j/k,
n, r, l, b, / and ? work, but never while typing or with a modifier key."""

import contextlib

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from accounts.services import create_user, sign_up
from socialsite.testing.browser import launch_chromium
from timeline.posting.services import post_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def session_of(login: str) -> str:
    client = Client()
    client.force_login(sign_up(login, "a long password 123", login.title()))
    return client.cookies["sessionid"].value


@contextlib.contextmanager
def logged_in(daphne_server: str, session: str, path: str):
    """Chromium on `path`, logged in with the `session` cookie (made before Playwright's
    event loop starts, as the `browser` fixture's would be too late)."""
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": session, "url": daphne_server}])
        page = context.new_page()
        page.goto(f"{daphne_server}{path}")
        yield page
        browser.close()


def ids_on(page) -> list[int]:
    return [int(i) for i in page.locator("#timeline > [data-status-id]").evaluate_all(
        "cards => cards.map((card) => card.dataset.statusId)"
    )]  # fmt: skip


def test_older_pages_load_in_place_near_the_bottom_once_each(browser, daphne_server):
    writer = create_user("walt", "Walt")
    posted = [post_status(writer, f"status number {n}") for n in range(65)]
    page = browser.new_page()
    page.goto(f"{daphne_server}/u/walt/")
    cards = page.locator("#timeline > [data-status-id]")
    expect(cards).to_have_count(30)
    # One posted meanwhile moves the pages along by one: no card is shown twice.
    post_status(writer, "posted while reading")
    page.locator(".pagination").scroll_into_view_if_needed()
    expect(cards).to_have_count(59)
    expect(page.locator(".pagination .page-number")).to_have_text("Page 2")
    page.locator(".pagination").scroll_into_view_if_needed()
    expect(cards).to_have_count(65)
    expect(page.locator('.pagination a[rel="next"]')).to_have_count(0)
    assert ids_on(page) == sorted(posted, reverse=True)


def test_without_javascript_the_older_link_pages_as_before(browser, daphne_server):
    writer = create_user("walt", "Walt")
    for n in range(35):
        post_status(writer, f"status number {n}")
    page = browser.new_context(java_script_enabled=False).new_page()
    page.goto(f"{daphne_server}/u/walt/")
    page.locator(".pagination").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    expect(page.locator("#timeline > [data-status-id]")).to_have_count(30)
    page.get_by_role("link", name="Older").click()
    expect(page).to_have_url(f"{daphne_server}/u/walt/?page=2")
    expect(page.locator("#timeline > [data-status-id]")).to_have_count(5)


def test_j_and_k_move_a_visible_focus_and_l_b_r_act_on_the_card(daphne_server):
    session = session_of("dora")
    writer = create_user("walt", "Walt")
    first, second, third = (post_status(writer, f"number {n}") for n in (1, 2, 3))
    with logged_in(daphne_server, session, "/timeline/") as page:
        card = {
            i: page.locator(f'#timeline [data-status-id="{i}"]') for i in (first, second, third)
        }

        page.keyboard.press("j")
        expect(card[third]).to_be_focused()
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineWidth")
        assert ring == "3px"
        page.keyboard.press("j")
        page.keyboard.press("j")
        expect(card[first]).to_be_focused()
        page.keyboard.press("j")  # the last stays
        expect(card[first]).to_be_focused()
        page.keyboard.press("k")
        expect(card[second]).to_be_focused()
        page.keyboard.press("Alt+k")  # a modifier: the browser's, not the page's
        page.keyboard.press("Control+j")
        expect(card[second]).to_be_focused()

        page.keyboard.press("l")
        expect(card[second].get_by_role("button", name="Unlike")).to_be_visible()
        expect(card[second]).to_contain_text("1 like")
        # From no card (the like may have loaded the page again): j, j is the second.
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("j")
        page.keyboard.press("j")
        page.keyboard.press("b")
        expect(card[second].get_by_role("button", name="Undo repost")).to_be_visible()
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("j")
        page.keyboard.press("r")
        expect(page).to_have_url(f"{daphne_server}/statuses/{third}/#reply")


def test_slash_searches_question_mark_helps_and_n_writes(daphne_server):
    session = session_of("dora")
    post_status(create_user("walt", "Walt"), "something to read")
    with logged_in(daphne_server, session, "/timeline/") as page:
        page.keyboard.press("/")
        search = page.get_by_role("searchbox", name="Search")
        expect(search).to_be_focused()
        expect(search).to_have_value("")
        page.keyboard.type("jk?")  # typing: no shortcut fires
        expect(search).to_have_value("jk?")
        expect(page.locator("dialog.shortcuts")).to_have_count(0)
        search.blur()

        page.keyboard.press("?")
        help_list = page.get_by_role("dialog", name="Keyboard shortcuts")
        expect(help_list).to_be_visible()
        expect(help_list).to_contain_text("Next status")
        expect(help_list).to_contain_text("Repost")
        page.keyboard.press("Escape")
        expect(help_list).to_be_hidden()

        # No composer on global: n goes home, to its composer.
        page.keyboard.press("n")
        composer = page.locator("main form.post-form textarea[name=message]")
        expect(composer).to_be_focused()
        expect(page).to_have_url(f"{daphne_server}/#new-status")
        page.keyboard.type("j is for jam")
        expect(composer).to_have_value("j is for jam")
        expect(page.locator("#timeline article:focus")).to_have_count(0)
