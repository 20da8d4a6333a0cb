"""Visibility and content warnings in Debian's Chromium against a real daphne server:
the composer's picker and warning field post what was chosen, and a warned card hides
its content until "Show more" is clicked."""

import pytest
from playwright.sync_api import expect

from accounts import services as accounts
from timeline.feeds import selectors as feeds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_warned_followers_only_post_hides_its_content_until_show_more(signed_up_page):
    page = signed_up_page("warner")
    page.get_by_label("Your status").fill("the butler did it")
    page.get_by_label("Who sees it").select_option("private")
    page.get_by_text("Add a content warning").click()
    page.get_by_label("Content warning").fill("Mystery ending")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.get_by_text("Posted.")).to_be_visible()
    status = feeds.get_status_messages(accounts.uid_for_login("warner"), "profile")[0]
    assert (status["visibility"], status["spoiler_text"]) == ("private", "Mystery ending")
    card = page.locator("article.status").first
    expect(card.get_by_text("Mystery ending")).to_be_visible()
    expect(card.locator(".status-lock")).to_be_visible()
    expect(card.get_by_text("the butler did it")).to_be_hidden()
    card.get_by_text("Show more").click()
    expect(card.get_by_text("the butler did it")).to_be_visible()
    expect(card.get_by_text("Show less")).to_be_visible()
