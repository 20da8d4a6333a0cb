"""The settings page in sections (a settings nav; one section shown at a time) and its
profile section's one "Save profile", which saves the display name, the profile's fields
and the avatar chosen, together."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from accounts.services import get_user
from timeline.tests.pages import page_text, shows


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (200, 200), (20, 120, 200)).save(out, "PNG")
    return out.getvalue()


def test_save_profile_uploads_the_avatar_chosen_with_the_rest(alice):
    response = alice.client.post(
        "/accounts/profile/",
        {
            "name": "Alice L.",
            "bio": "hi",
            "website": "alice.example",
            "location": "Lisbon",
            "avatar": SimpleUploadedFile("me.png", picture()),
        },
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/settings/"
    person = get_user(alice.uid)
    assert person["avatar"]
    assert (person["name"], person["bio"], person["website"]) == (
        "Alice L.",
        "hi",
        "https://alice.example",
    )


def test_a_bad_avatar_saves_nothing_and_says_so_in_the_profile_section(alice):
    response = alice.client.post(
        "/accounts/profile/",
        {"name": "Changed", "bio": "changed", "website": "", "location": "",
         "avatar": SimpleUploadedFile("me.png", b"not a picture")},
    )  # fmt: skip
    assert response.status_code == 400
    assert 'class="settings-section settings-current" id="settings-profile"' in page_text(response)
    person = get_user(alice.uid)
    assert person["name"] != "Changed" and "bio" not in person and not person.get("avatar")


def test_a_bad_field_keeps_the_avatar_unsaved(alice):
    response = alice.client.post(
        "/accounts/profile/",
        {"name": "", "bio": "", "website": "", "location": "",
         "avatar": SimpleUploadedFile("me.png", picture())},
    )  # fmt: skip
    assert response.status_code == 400
    assert shows(response, "The display name can't be blank.")
    assert not get_user(alice.uid).get("avatar")


def test_the_profile_form_holds_the_name_and_the_avatar_with_one_save(alice):
    text = page_text(alice.client.get("/accounts/settings/"))
    start = text.index('action="/accounts/profile/"')
    form = text[start : text.index("</form>", start)]
    assert 'enctype="multipart/form-data"' in text[start - 200 : start + 200]
    for field in ('name="name"', 'name="bio"', 'name="website"', 'name="avatar"'):
        assert field in form
    assert form.count('type="submit"') == 1 and "Save profile" in form


def test_the_settings_page_has_a_nav_of_its_sections(alice):
    text = page_text(alice.client.get("/accounts/settings/"))
    assert '<nav class="settings-nav" aria-label="Settings">' in text
    for section in ("profile", "appearance", "account", "privacy", "apps"):
        assert f'href="#settings-{section}"' in text
        assert f'id="settings-{section}"' in text
    assert 'class="settings-section settings-current" id="settings-profile"' in text


def test_a_wrong_password_shows_the_account_section(alice):
    response = alice.client.post(
        "/accounts/password/",
        {"old_password": "wrong", "new_password1": "x", "new_password2": "x"},
    )
    assert response.status_code == 400
    assert 'class="settings-section settings-current" id="settings-account"' in page_text(response)


def test_the_first_run_panel_may_send_the_name_alone_and_go_back_home(alice):
    response = alice.client.post("/accounts/profile/", {"name": "Just Alice", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert get_user(alice.uid)["name"] == "Just Alice"
