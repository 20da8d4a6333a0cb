"""The settings page in Debian's Chromium: a nav of its sections, one shown at a time
(a short page, not one long one with a Save button every screen), at phone and desktop
widths; the avatar chosen is uploaded by "Save profile"."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from socialsite.testing.browser import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 120), (30, 160, 90)).save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_settings_show_one_section_at_a_time_from_their_nav(browser, daphne_server, viewport):
    page = browser.new_context(viewport=viewport).new_page()
    sign_up(page, daphne_server, "setter")
    page.goto(f"{daphne_server}/accounts/settings/")
    nav = page.get_by_role("navigation", name="Settings")
    profile = page.get_by_role("heading", name="Profile", exact=True)
    expect(profile).to_be_visible()
    expect(page.get_by_label("Current password")).to_be_hidden()
    expect(page.get_by_label("Private account")).to_be_hidden()
    # One section: a couple of screens at most, not ~3,500 px.
    assert page.evaluate("document.documentElement.scrollHeight") < 2 * viewport["height"] + 400
    assert page.get_by_role("button", name=re.compile("^Save")).count() == 1

    nav.get_by_role("link", name="Privacy and safety").click()
    expect(page.get_by_label("Private account")).to_be_visible()
    expect(profile).to_be_hidden()
    nav.get_by_role("link", name="Account").click()
    expect(page.get_by_label("Current password")).to_be_visible()
    expect(page.get_by_role("heading", name="Delete my account")).to_be_visible()
    nav.get_by_role("link", name="Apps and streams").click()
    expect(page.get_by_role("heading", name="Stream keys")).to_be_visible()
    expect(page.get_by_label("Current password")).to_be_hidden()


def test_an_avatar_chosen_is_uploaded_by_save_profile(browser, daphne_server):
    page = browser.new_context(viewport=DESKTOP).new_page()
    sign_up(page, daphne_server, "pictured")
    page.goto(f"{daphne_server}/accounts/settings/")
    page.get_by_label("Bio").fill("Hello there")
    page.get_by_label("Avatar").set_input_files(
        files=[{"name": "me.png", "mimeType": "image/png", "buffer": png()}]
    )
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_text("Your profile is saved.")).to_be_visible()
    expect(page.get_by_alt_text("Your avatar")).to_have_attribute(
        "src", re.compile(r"^/media/avatars/\d+/\w+-400\.webp$")
    )
    expect(page.get_by_label("Bio")).to_have_value("Hello there")
