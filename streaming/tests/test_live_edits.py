"""An edit on a live page in Chromium, against the real daphne server: the card shown is
drawn again with the new text and "edited", without a reload."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from accounts.services import create_user, sign_up, uid_for_login
from timeline.edits.services import edit_status
from timeline.graph.services import follow_user
from timeline.posting.services import post_status

from .test_live_timeline import live_home

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_edited_status_is_drawn_again_on_the_live_home(daphne_server):
    client = Client()
    client.force_login(sign_up("reader", "a long password 123", "Reader"))
    session = client.cookies["sessionid"].value
    reader, writer = uid_for_login("reader"), create_user("writer", "Writer")
    follow_user(reader, writer)
    shown = post_status(writer, "a typo hre")

    with live_home(daphne_server, session) as page:
        timeline = page.locator("#timeline")
        expect(timeline).to_have_attribute("data-live", "on")
        card = timeline.locator(f'[data-status-id="{shown}"]')
        expect(card).to_contain_text("a typo hre")
        edit_status(writer, shown, "a typo fixed here")
        expect(card).to_contain_text("a typo fixed here")
        expect(card.locator(".status-edited")).to_contain_text("edited")
        # Drawn in place: no "new status" counted for it.
        expect(page.locator(".new-statuses")).to_be_hidden()
