"""The pages' shell in Debian's Chromium at a phone's 390x844 and a laptop's 1280x800:
a compact sticky top bar and a bottom tab bar on the phone with a status on its first
screen, three columns that never wrap on the laptop, buttons on one line, a skip link,
a visible focus ring, and dark colours from the system or as chosen in settings."""

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from accounts import profiles
from accounts import services as accounts
from accounts.appearance import set_theme
from socialsite.testing.browser import PASSWORD, launch_chromium, log_in
from timeline.discovery import suggestions
from timeline.graph import services as graph
from timeline.posting import services as posting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
TABS = ["Home", "Search", "Notifications", "Messages", "Profile"]


def reader() -> int:
    """A reader following someone with statuses, with suggestions and trends on home,
    past their first run (its panel, a new account's, comes before the timeline)."""
    accounts.sign_up("reader", PASSWORD, "Reader")
    uid = accounts.uid_for_login("reader")
    profiles.dismiss_first_run(uid)
    friend = accounts.create_user("friend", "Friend")
    graph.follow_user(uid, friend)
    for n in range(8):
        posting.post_status(friend, f"status {n} about #cats, long enough to take two lines here")
    # Someone the reader's follow follows: a suggestion (with its Follow button).
    popular = accounts.create_user("popular", "A rather long display name")
    graph.follow_user(friend, popular)
    graph.follow_user(popular, friend)
    suggestions.store_suggestions(uid)
    return uid


def lines(page: Page, selector: str) -> list[int]:
    """How many lines the visible text of each element matching `selector` takes."""
    return page.eval_on_selector_all(
        selector,
        """els => els.map(el => {
          const tops = new Set(), walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            if (!node.textContent.trim()) continue;
            if (node.parentElement.closest('.visually-hidden')) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const box of range.getClientRects()) {
              if (box.width > 0) tops.add(Math.round(box.top));
            }
          }
          return tops.size;
        })""",
    )


def luminance(page: Page, selector: str, prop: str = "backgroundColor") -> float:
    rgb = page.eval_on_selector(
        selector, f"el => getComputedStyle(el).{prop}.match(/\\d+/g).slice(0, 3).map(Number)"
    )
    return sum(rgb) / (3 * 255)


def test_a_phone_has_a_compact_sticky_top_bar_a_tab_bar_and_a_status_on_its_first_screen(
    daphne_server,
):
    reader()
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=PHONE).new_page()
        log_in(page, daphne_server, "reader")
        page.goto(f"{daphne_server}/")
        header = page.locator(".site-header").bounding_box()
        assert header["y"] == 0 and header["height"] <= 56, header
        # The tab bar: five tabs on one row at the bottom of the screen.
        tabs = page.locator(".nav-links a:visible")
        assert [t.strip() for t in tabs.all_inner_texts()] == TABS
        boxes = [tabs.nth(i).bounding_box() for i in range(tabs.count())]
        assert len({round(box["y"]) for box in boxes}) == 1
        assert all(box["y"] + box["height"] <= PHONE["height"] + 1 for box in boxes)
        assert boxes[0]["y"] >= PHONE["height"] - 80
        # The composer first, then the first status, on the first screen above the tab
        # bar; the side panels (search, suggestions, trends) after the timeline.
        composer = page.locator(".post-form").bounding_box()
        first = page.locator("#timeline .status").first.bounding_box()
        assert composer["y"] < 120 and first["y"] + 60 < boxes[0]["y"], (composer, first)
        suggestions = page.locator("#suggestions").bounding_box()
        assert suggestions["y"] > page.locator("#timeline").bounding_box()["y"]
        # Scrolled down: the top bar and the tab bar stay where they are.
        page.evaluate("window.scrollTo(0, 1500)")
        assert page.evaluate("window.scrollY") > 500
        assert page.locator(".site-header").bounding_box()["y"] == 0
        assert tabs.first.bounding_box()["y"] == boxes[0]["y"]
        # The rest of the nav is in the top bar's More menu.
        page.locator(".more-menu summary").click()
        expect(page.locator(".more-menu").get_by_role("link", name="Global")).to_be_visible()
        expect(page.locator(".more-menu").get_by_role("button", name="Log out")).to_be_visible()
        browser.close()


def test_a_laptop_has_three_columns_whose_nav_and_buttons_never_wrap(daphne_server):
    reader()
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=LAPTOP).new_page()
        log_in(page, daphne_server, "reader")
        page.goto(f"{daphne_server}/")
        nav = page.locator(".site-nav").bounding_box()
        main = page.locator("main").bounding_box()
        side = page.locator(".side").bounding_box()
        assert nav["x"] + nav["width"] <= main["x"] < main["x"] + main["width"] <= side["x"]
        assert side["x"] + side["width"] <= LAPTOP["width"]
        header = page.locator(".site-header").bounding_box()
        assert header["y"] < 40 and side["y"] < 40 and main["y"] < 40  # side by side
        # The right column: the search box, then suggestions.
        search = page.locator(".side .nav-search").bounding_box()
        assert (
            search["width"] >= 250
            and search["y"] < page.locator("#suggestions").bounding_box()["y"]
        )
        # Every nav link and every button on one line ("Follo / w" no more).
        assert set(lines(page, ".nav-links a:not(:is(.search-tab *)), .nav-links button")) == {1}
        follow = page.locator("#suggestions").get_by_role("button", name="Follow", exact=True)
        expect(follow).to_be_visible()
        # (An icon-only button, such as Bookmark, shows no line of text at all.)
        assert set(
            lines(page, "#suggestions button, .status-actions button, .post-form button")
        ) <= {0, 1}
        assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
        # The nav is one column of links: no link beside another.
        lefts = {
            round(box["x"])
            for box in map(lambda a: a.bounding_box(), page.locator(".nav-links a:visible").all())
        }
        assert len(lefts) == 1
        browser.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_skip_link_comes_first_and_the_focus_ring_is_3_px(daphne_server, viewport):
    reader()
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=viewport).new_page()
        log_in(page, daphne_server, "reader")
        page.goto(f"{daphne_server}/")
        page.keyboard.press("Tab")
        skip = page.get_by_role("link", name="Skip to content")
        expect(skip).to_be_focused()
        box = skip.bounding_box()
        assert box["y"] >= 0 and box["x"] >= 0  # on screen once focused
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "main"
        # The next Tab reaches the page's own content, with a ring anyone can see.
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "(() => { const s = getComputedStyle(document.activeElement);"
            " return [document.activeElement.closest('main') !== null, s.outlineStyle,"
            " parseFloat(s.outlineWidth)]; })()"
        )
        assert focused[0] and focused[1] == "solid" and focused[2] >= 3, focused
        browser.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_dark_colours_follow_the_system_unless_a_theme_is_chosen(daphne_server, viewport):
    uid = reader()
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        dark = browser.new_context(viewport=viewport, color_scheme="dark").new_page()
        log_in(dark, daphne_server, "reader")
        dark.goto(f"{daphne_server}/")
        assert luminance(dark, "body") < 0.2 and luminance(dark, ".status") < 0.25
        assert luminance(dark, "body", "color") > 0.8
        assert luminance(dark, ".nav-links .tab", "color") > 0.8
        # Light chosen in settings wins over the dark system.
        dark.goto(f"{daphne_server}/accounts/settings/#settings-appearance")
        dark.get_by_label("Light").check()
        dark.get_by_role("button", name="Save appearance").click()
        expect(dark.get_by_text("Appearance: light.")).to_be_visible()
        assert luminance(dark, "body") > 0.9
        # Dark chosen wins over a light system.
        set_theme(uid, "dark")
        light = browser.new_context(viewport=viewport, color_scheme="light").new_page()
        log_in(light, daphne_server, "reader")
        light.goto(f"{daphne_server}/u/friend/")
        assert luminance(light, "body") < 0.2 and luminance(light, ".profile") < 0.25
        browser.close()
