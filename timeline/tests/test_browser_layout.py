"""The pages' layout in Debian's Chromium against a real daphne server: nothing a user
writes widens a phone's page, tap targets are big enough, people lists look like lists
of links, and the admin's statuses table keeps to the window."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect, sync_playwright

from accounts import services as accounts
from socialsite.testing.browser import PASSWORD, launch_chromium, log_in
from timeline.graph import services as graph
from timeline.lists import services as lists
from timeline.posting import services as posting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LONG_NAME = "W" * 50  # the longest display name, one unbreakable word
LONG_WORD = "x" * 200


def page_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_a_50_character_name_and_a_200_character_word_keep_phone_pages_390_px_wide(
    daphne_server,
):
    accounts.sign_up("wide", PASSWORD, LONG_NAME)
    wide = accounts.uid_for_login("wide")
    other = accounts.create_user("other", LONG_NAME)
    graph.follow_user(wide, other)
    graph.follow_user(other, wide)
    posting.post_status(wide, f"a long word: {LONG_WORD}")
    posting.post_status(other, f"another: {LONG_WORD}")
    list_id = lists.create_list(wide, "Friends")
    lists.add_member(wide, list_id, other)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=PHONE).new_page()
        log_in(page, daphne_server, "wide")
        # Pages showing the name, then pages showing the word.
        for path in (
            "/",
            "/u/wide/",
            "/u/other/",
            "/u/wide/followers/",
            "/u/wide/following/",
            f"/lists/{list_id}/members/",
        ):
            page.goto(f"{daphne_server}{path}")
            expect(page.locator("main")).to_contain_text(LONG_NAME)
            assert page_width(page) <= PHONE["width"], path
        for path in ("/timeline/", "/u/wide/", f"/lists/{list_id}/"):
            page.goto(f"{daphne_server}{path}")
            expect(page.locator("main")).to_contain_text(LONG_WORD)
            assert page_width(page) <= PHONE["width"], path
        browser.close()


def test_tap_targets_on_a_phone_are_at_least_44_px(daphne_server):
    accounts.sign_up("tapper", PASSWORD, "Tapper")
    tapper = accounts.uid_for_login("tapper")
    friend = accounts.create_user("friend", "Friend")
    graph.follow_user(tapper, friend)
    graph.follow_user(friend, tapper)
    posting.post_status(friend, "tap me")
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=PHONE).new_page()
        log_in(page, daphne_server, "tapper")
        for path, selector in (
            # The nav links a phone shows (the tab bar's; the rest are in More, closed).
            ("/", ".status-actions a, .status-actions button, .nav-links a:visible"),
            ("/", ".post-form button"),
            ("/u/tapper/followers/", ".people a, .people button"),
        ):
            page.goto(f"{daphne_server}{path}")
            targets = page.locator(selector)
            expect(targets.first).to_be_visible()
            for index in range(targets.count()):
                box = targets.nth(index).bounding_box()
                label = targets.nth(index).inner_text()
                assert box["height"] >= 44 and box["width"] >= 44, (path, label, box)
        browser.close()


def test_people_lists_are_padded_links_and_the_hints_are_links(daphne_server):
    accounts.sign_up("lister", PASSWORD, "Lister")
    lister = accounts.uid_for_login("lister")
    friend = accounts.create_user("friend", "Friend")
    graph.follow_user(friend, lister)
    list_id = lists.create_list(lister, "Friends")
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=PHONE).new_page()
        log_in(page, daphne_server, "lister")
        # An empty home says where to find people, as a link.
        page.get_by_role("link", name="find people to follow in the directory").click()
        expect(page).to_have_url(f"{daphne_server}/directory/")

        page.goto(f"{daphne_server}/u/lister/followers/")
        person = page.get_by_role("link", name="Friend @friend")
        card = page.locator("ul.people")
        assert person.bounding_box()["x"] - card.bounding_box()["x"] >= 12  # not flush
        accent = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()"
        )
        color = person.evaluate("el => getComputedStyle(el).color")
        assert color == page.evaluate(
            "c => { const d = document.createElement('i'); d.style.color = c;"
            " document.body.append(d); const got = getComputedStyle(d).color; d.remove();"
            " return got; }",
            accent,
        )
        # Follow back from the list: the button becomes Unfollow, still on this page.
        page.get_by_role("button", name="Follow @friend").click()
        expect(page).to_have_url(f"{daphne_server}/u/lister/followers/")
        expect(page.get_by_role("button", name="Unfollow @friend")).to_be_visible()

        # The list's add-member form has no line above its field.
        page.goto(f"{daphne_server}/lists/{list_id}/members/")
        row = page.locator("form.add-member .form-row")
        assert row.evaluate("el => getComputedStyle(el).borderTopStyle") == "none"
        page.get_by_label("Login to add").fill("nobody")
        page.get_by_role("button", name="Add").click()
        expect(page.get_by_role("alert")).to_have_text("There is no user @nobody.")
        expect(page.get_by_role("heading", name="Members of Friends")).to_be_visible()
        browser.close()


def test_the_admins_statuses_table_keeps_a_200_character_word_in_the_window(daphne_server):
    author = accounts.create_user("author", "Author")
    posting.post_status(author, f"look: {LONG_WORD}")
    User.objects.create_user("operator", password=PASSWORD, is_staff=True, is_superuser=True)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        page.goto(f"{daphne_server}/admin/login/")
        page.get_by_label("Username").fill("operator")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.goto(f"{daphne_server}/admin/redis/statuses/")
        expect(page.locator(".redis-statuses")).to_contain_text(LONG_WORD)
        assert page_width(page) <= 1024
        # The time is on one line, not "2026-/11-/24/14:36".
        posted = page.locator(".redis-statuses td.status-posted").first
        lines = posted.evaluate(
            "td => { const r = document.createRange(); r.selectNodeContents(td);"
            " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"
        )
        assert lines == 1
        browser.close()
