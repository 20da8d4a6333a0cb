"""Account self-service in Debian's Chromium against a real daphne server: change the
password (other browsers are logged out), export the data (the download streamed by
daphne), delete the account (confirmed with the password) and take the login again."""

import json

import pytest
from playwright.sync_api import expect

from socialsite.testing.browser import PASSWORD, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "another-long-pass-7"


def test_change_password_export_delete_and_sign_up_again(browser, daphne_server):
    page = browser.new_context(accept_downloads=True).new_page()
    elsewhere = browser.new_context().new_page()
    sign_up(page, daphne_server, "mover")
    page.get_by_label("Your status").fill("packing up")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.get_by_text("Posted.")).to_be_visible()
    elsewhere.goto(f"{daphne_server}/accounts/login/")
    elsewhere.get_by_label("Login").fill("mover")
    elsewhere.get_by_label("Password").fill(PASSWORD)
    elsewhere.get_by_role("button", name="Log in").click()
    expect(elsewhere.get_by_role("button", name="Log out")).to_be_visible()

    # Change the password: this browser goes on, the other is logged out.
    page.get_by_role("link", name="Settings").click()
    page.get_by_role("navigation", name="Settings").get_by_role("link", name="Account").click()
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_text("Your password is changed.")).to_be_visible()
    elsewhere.goto(f"{daphne_server}/accounts/settings/")
    expect(elsewhere).to_have_url(f"{daphne_server}/accounts/login/?next=/accounts/settings/")

    # Export: a JSON file with the status in it.
    with page.expect_download() as download:
        page.get_by_role("button", name="Download my data").click()
    assert download.value.suggested_filename.startswith("socialsite-mover-")
    data = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert data["profile"]["login"] == "mover"
    assert [s["message"] for s in data["statuses"]] == ["packing up"]

    # Delete: a wrong password changes nothing; cancelling the question neither.
    delete = page.get_by_role("button", name="Delete my account")
    page.get_by_label("Your password").fill("not it")
    page.once("dialog", lambda dialog: dialog.accept())
    delete.click()
    expect(page.get_by_text("That is not your password: nothing was deleted.")).to_be_visible()
    page.get_by_label("Your password").fill(NEW_PASSWORD)
    page.once("dialog", lambda dialog: dialog.dismiss())
    delete.click()
    expect(page.get_by_role("heading", name="Delete my account")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    delete.click()
    expect(page.get_by_text("The account @mover is deleted.")).to_be_visible()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    page.goto(f"{daphne_server}/u/mover/")
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()

    # The login is free: anyone may take it.
    sign_up(page, daphne_server, "mover")
    page.goto(f"{daphne_server}/u/mover/")
    expect(page.get_by_text("No statuses yet.")).to_be_visible()
