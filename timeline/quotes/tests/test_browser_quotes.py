"""Quoting in Debian's Chromium against a real daphne server: from a status's card to
the quote composer, and the quote shown with the quoted status nested in its card."""

import pytest
from playwright.sync_api import expect

from timeline.posting import services as posting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reader_quotes_a_status_from_its_card(signed_up_page, daphne_server, make_user):
    quoted = posting.post_status(make_user("quoted").uid, "words worth quoting")
    page = signed_up_page("quoter")
    page.goto(f"{daphne_server}/statuses/{quoted}/")
    page.locator(f'a.status-quote[href="/statuses/{quoted}/quote/"]').click()
    expect(page.get_by_role("heading", name="Quote @quoted")).to_be_visible()
    page.get_by_label("Your status").fill("my own words")
    page.get_by_role("button", name="Post quote").click()
    page.goto(f"{daphne_server}/u/quoter/")
    card = page.locator("article.status").first
    expect(card.locator(".status-text").first).to_have_text("my own words")
    expect(card.locator("blockquote.status-quoted")).to_contain_text("words worth quoting")
