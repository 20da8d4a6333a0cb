"""A new account's first-run panel on home: pick a display name and an avatar, follow a
few people; dismissed for good (in every browser)."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from accounts.services import get_user
from timeline.tests.pages import page_text, shows


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 100, 20)).save(out, "PNG")
    return out.getvalue()


def panel(response) -> str:
    text = page_text(response)
    if 'id="first-run"' not in text:
        return ""
    start = text.index('id="first-run"')
    return text[start : text.index("</section>", start)]


def test_a_new_account_gets_the_first_run_panel_after_the_post_box(alice):
    response = alice.client.get("/")
    shown = panel(response)
    assert shown
    assert 'name="name"' in shown and 'name="avatar"' in shown
    assert 'action="/accounts/profile/"' in shown and 'enctype="multipart/form-data"' in shown
    assert 'href="/directory/"' in shown
    assert shows(response, "You follow 0 people.")
    text = page_text(response)
    assert text.index('class="card post-form"') < text.index('id="first-run"')


def test_the_panel_saves_the_name_and_the_avatar_and_goes_back_home(alice):
    response = alice.client.post(
        "/accounts/profile/",
        {"name": "Alice Liddell", "avatar": SimpleUploadedFile("a.png", picture()), "next": "/"},
    )
    assert response.status_code == 302 and response["Location"] == "/"
    person = get_user(alice.uid)
    assert person["name"] == "Alice Liddell" and person["avatar"]
    assert 'class="first-run-step first-run-done"' in panel(alice.client.get("/"))


def test_a_dismissed_panel_stays_dismissed_in_every_browser(alice):
    response = alice.client.post("/accounts/welcome/dismiss/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert panel(alice.client.get("/")) == ""
    # Kept with the account, not in a cookie: another browser doesn't show it either.
    elsewhere = Client()
    elsewhere.force_login(alice.user)
    assert panel(elsewhere.get("/")) == ""
    assert panel(elsewhere.get("/?order=top")) == ""


def test_dismissing_is_for_the_logged_in_only(client):
    response = client.post("/accounts/welcome/dismiss/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
