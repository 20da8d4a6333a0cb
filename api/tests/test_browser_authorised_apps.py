"""The settings page's revocations in Debian's Chromium against a real daphne server:
revoking an authorised app asks first, as revoking a stream key does (pages.js's
data-confirm), and cancelling the question changes nothing."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from api.oauth import OOB, issue_token, register_app
from socialsite.testing.browser import log_in
from streaming.services import create_stream_key

from .conftest import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture
def cautious(person) -> str:
    """A user who authorised an app, Tooter, and made a stream key, "my bot" (before the
    browser starts: its event loop keeps the ORM out of the test's thread)."""
    uid = person("cautious")
    app, _ = register_app("Tooter", OOB, "read")
    issue_token(app, User.objects.get(username="cautious"), "read")
    create_stream_key(uid, "my bot")
    return "cautious"


def test_revoking_an_app_or_a_stream_key_asks_first(cautious, browser, daphne_server):
    page = browser.new_page()
    log_in(page, daphne_server, cautious, PASSWORD)
    page.goto(f"{daphne_server}/accounts/settings/#settings-apps")
    apps, keys = page.locator("#authorised-apps"), page.locator("#stream-keys")
    questions = []
    for section, row, asked in (
        (apps, "Tooter", "Revoke the app Tooter? It loses access to your account at once."),
        (keys, "my bot", "Revoke the stream key my bot? Programs using it stop streaming."),
    ):
        revoke = section.get_by_role("row", name=row).get_by_role("button", name="Revoke")
        page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
        revoke.click()
        assert questions[-1] == asked
        expect(section.get_by_role("row", name=row)).to_be_visible()
        page.once("dialog", lambda dialog: dialog.accept())
        revoke.click()
        expect(section.get_by_role("row", name=row)).to_have_count(0)
    expect(apps.get_by_text("No app has access to your account.")).to_be_visible()
    expect(keys.get_by_text("You have no stream keys.")).to_be_visible()
