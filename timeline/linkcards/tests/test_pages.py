"""Link cards on the site's pages: the card under the status's text, its picture with
its width and height (the browser keeps its place before it loads: no layout shift),
behind the status's content warning, and gone with an edit of the link."""

import re

import pytest
from django.test import Client
from playwright.sync_api import sync_playwright

from accounts import services as accounts
from socialsite.testing.browser import launch_chromium
from timeline.edits import services as edits
from timeline.posting import services as posting

from .site import run_jobs


def _card_html(html: str) -> str:
    found = re.search(r'<a class="link-card.*?</a>', html, re.S)
    return found.group(0) if found else ""


def test_a_status_page_and_the_timelines_show_the_card(alice, pages):
    status_id = posting.post_status(alice.uid, f"look {pages.url('/og')}")
    run_jobs()
    for path in (f"/statuses/{status_id}/", "/u/alice/", "/"):
        client = alice.client if path == "/" else Client()
        card = _card_html(client.get(path).content.decode())
        assert f'href="{pages.url("/og")}"' in card, path
        assert 'rel="nofollow noopener ugc"' in card
        assert "A page" in card and "Example News" in card and "What the page says" in card
        assert re.search(r'<img class="link-card-image" src="/media/cards/[\w-]+\.webp"', card)
        assert 'width="640" height="427"' in card and 'alt="A red square"' in card


def test_a_warned_status_keeps_its_card_behind_the_warning(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}", spoiler_text="spoilers")
    run_jobs()
    html = Client().get(f"/statuses/{status_id}/").content.decode()
    warning = html.index('<details class="status-warning"')
    assert warning < html.index('class="link-card') < html.index("</details>", warning)


def test_an_edit_of_the_link_takes_the_card_off_the_page_at_once(alice, pages):
    status_id = posting.post_status(alice.uid, f"{pages.url('/og')}")
    run_jobs()
    assert _card_html(Client().get(f"/statuses/{status_id}/").content.decode())
    edits.edit_status(alice.uid, status_id, "no link any more")
    assert not _card_html(Client().get(f"/statuses/{status_id}/").content.decode())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_cards_picture_has_its_place_before_it_loads(daphne_server, pages):
    uid = accounts.create_user("carded", "Carded")
    status_id = posting.post_status(uid, f"{pages.url('/og')}")
    run_jobs()
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        held = []
        # The picture never comes: the card must have its final size without it.
        page.route("**/media/cards/**", lambda route: held.append(route))
        page.goto(f"{daphne_server}/statuses/{status_id}/", wait_until="domcontentloaded")
        picture = page.locator(".link-card-image")
        before = picture.bounding_box()
        title_before = page.locator(".link-card-title").bounding_box()
        assert before and before["height"] > 100
        assert abs(before["height"] / before["width"] - 427 / 640) < 0.02
        assert held  # the picture was asked for, and is held
        # Let it through (unroute hands the held request on to the network).
        page.unroute("**/media/cards/**")
        for _ in range(100):
            if picture.evaluate("image => image.complete && image.naturalWidth > 0"):
                break
            page.wait_for_timeout(50)
        assert picture.evaluate("image => image.naturalWidth") == 640
        assert picture.bounding_box() == before
        assert page.locator(".link-card-title").bounding_box() == title_before
        browser.close()
