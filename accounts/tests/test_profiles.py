import io
import re

import pytest
from django.core.files.storage import default_storage
from PIL import Image

from accounts import avatars, profiles
from accounts.services import get_user
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def picture(kind: str = "PNG", size=(600, 300), color=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, kind)
    return out.getvalue()


def upload(client, data: bytes, name: str = "me.png"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post("/accounts/avatar/", {"avatar": SimpleUploadedFile(name, data)})


# Bio, website, location


def test_a_profile_keeps_bio_website_and_location(alice):
    profiles.update_profile(
        alice.uid, bio="I like #redis, ask @bob", website="https://a.example/", location="Paris"
    )
    user = get_user(alice.uid)
    assert (user["bio"], user["website"], user["location"]) == (
        "I like #redis, ask @bob",
        "https://a.example/",
        "Paris",
    )
    profiles.update_profile(alice.uid, bio="", website="", location="")
    assert "bio" not in get_user(alice.uid) and "website" not in get_user(alice.uid)


@pytest.mark.parametrize(
    "website",
    [
        "javascript:alert(1)",
        "ftp://a.example/",
        "data:text/html,hi",
        "a.example:8080",
        "http://",
        "https://exa mple.com/",
    ],
)
def test_websites_are_http_or_https_only(alice, website):
    profiles.update_profile(alice.uid, bio="kept", website="", location="")
    with pytest.raises(ValueError, match="http:// or https://"):
        profiles.update_profile(alice.uid, bio="changed", website=website, location="")
    assert get_user(alice.uid)["bio"] == "kept"


def test_a_website_without_a_scheme_is_taken_as_https(alice):
    profiles.update_profile(alice.uid, bio="", website="alice.example", location="")
    assert get_user(alice.uid)["website"] == "https://alice.example"


def test_the_settings_page_takes_a_bare_website_as_https(alice):
    response = alice.client.post(
        "/accounts/profile/", {"bio": "", "website": "alice.example/blog", "location": ""}
    )
    assert response.status_code == 302
    assert get_user(alice.uid)["website"] == "https://alice.example/blog"


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"bio": "x" * 161}, "at most 160"),
        ({"location": "x" * 31}, "at most 30"),
        ({"bio": "hi\u202eevil"}, "bidi override"),
        ({"website": "https://a.example/" + "x" * 200}, "at most 200"),
    ],
)
def test_bad_profile_fields_are_refused(alice, fields, error):
    with pytest.raises(ValueError, match=error):
        profiles.update_profile(alice.uid, **{"bio": "", "website": "", "location": "", **fields})
    assert "bio" not in get_user(alice.uid)


def test_the_profile_page_shows_the_bio_with_links(client, alice, bob):
    profiles.update_profile(
        alice.uid,
        bio="Ask @bob about https://x.example/",
        website="http://a.example/",
        location="Oslo",
    )
    response = client.get("/u/alice/")
    assert 'href="/u/bob/"' in page_text(response)
    assert 'href="https://x.example/"' in page_text(response)
    assert shows(response, "Oslo · http://a.example/")


def test_the_settings_page_saves_the_profile(alice):
    response = alice.client.post(
        "/accounts/profile/", {"bio": "hello", "website": "https://a.example/", "location": "Rome"}
    )
    assert response.status_code == 302
    assert get_user(alice.uid)["location"] == "Rome"
    page = alice.client.get("/accounts/settings/")
    assert 'value="Rome"' in page_text(page)


def test_a_bad_website_on_the_settings_page_says_so_and_changes_nothing(alice):
    response = alice.client.post(
        "/accounts/profile/", {"bio": "hello", "website": "javascript:alert(1)", "location": ""}
    )
    assert response.status_code == 400
    assert shows(response, "A website is an http:// or https:// address.")
    assert "bio" not in get_user(alice.uid)


# Avatars


def test_an_avatar_is_resized_reencoded_and_stored(alice):
    token = profiles.set_avatar(alice.uid, picture("JPEG", (800, 500)))
    assert get_user(alice.uid)["avatar"] == token
    for size in avatars.SIZES:
        with default_storage.open(avatars.avatar_name(alice.uid, token, size)) as stored:
            image = Image.open(stored)
            assert (image.format, image.size) == ("WEBP", (size, size))


@pytest.mark.parametrize("kind", ["PNG", "WEBP", "JPEG"])
def test_jpeg_png_and_webp_are_accepted(alice, kind):
    assert profiles.set_avatar(alice.uid, picture(kind))


def test_a_new_avatar_replaces_the_old_files(alice):
    old = profiles.set_avatar(alice.uid, picture())
    new = profiles.set_avatar(alice.uid, picture(color=(0, 0, 255)))
    assert old != new
    assert not default_storage.exists(avatars.avatar_name(alice.uid, old, 96))
    assert default_storage.exists(avatars.avatar_name(alice.uid, new, 96))
    assert profiles.remove_avatar(alice.uid) is True
    assert not default_storage.exists(avatars.avatar_name(alice.uid, new, 96))
    assert profiles.remove_avatar(alice.uid) is False


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"", "empty"),
        (b"#!/bin/sh\nrm -rf /\n", "not a picture"),
        (b"\x89PNG\r\n\x1a\n<?php system($_GET['c']); ?>", "not a picture"),
        (picture()[:200], "not a picture"),
        (picture("GIF"), "JPEG, PNG or WebP"),
        (b"\x00" * (2 * 1024 * 1024 + 1), "at most 2 MB"),
    ],
)
def test_bad_avatars_are_refused_and_store_nothing(alice, media, data, error):
    with pytest.raises(avatars.BadAvatar, match=error):
        profiles.set_avatar(alice.uid, data)
    assert "avatar" not in get_user(alice.uid)
    assert not media.exists() or not any(media.rglob("*.webp"))


def test_a_picture_with_too_many_pixels_is_refused(alice, monkeypatch):
    monkeypatch.setattr(avatars, "AVATAR_MAX_PIXELS", 100)
    with pytest.raises(avatars.BadAvatar, match="too many pixels"):
        profiles.set_avatar(alice.uid, picture(size=(20, 20)))


def test_uploading_an_avatar_from_settings(alice):
    response = upload(alice.client, picture())
    assert response.status_code == 302
    token = get_user(alice.uid)["avatar"]
    page = alice.client.get("/accounts/settings/")
    assert avatars.avatar_name(alice.uid, token, 400) in page_text(page)


@pytest.mark.parametrize(
    ("data", "name", "error"),
    [
        (b"<script>alert(1)</script>", "evil.png", "not a picture we can read"),
        (b"x" * (2 * 1024 * 1024 + 10), "big.png", "at most 2 MB"),
    ],
)
def test_a_bad_upload_says_why_on_the_settings_page(alice, data, name, error):
    response = upload(alice.client, data, name)
    assert response.status_code == 400
    assert shows(response, error)
    assert "avatar" not in get_user(alice.uid)


def test_uploads_are_served_from_media_in_development(client, alice):
    token = profiles.set_avatar(alice.uid, picture())
    response = client.get("/media/" + avatars.avatar_name(alice.uid, token, 96))
    assert response.status_code == 200
    assert b"".join(response.streaming_content)[:4] == b"RIFF"


# Display name and avatar on cards and people lists


def test_status_cards_show_the_authors_display_name_and_avatar(client, alice):
    posting.post_status(alice.uid, "hello")
    # The default avatar, under its hashed name (STORAGES["staticfiles"]).
    hashed = r'src="/static/img/avatar\.[0-9a-f]{12}\.svg"'
    assert re.search(hashed, page_text(client.get("/timeline/")))
    token = profiles.set_avatar(alice.uid, picture())
    response = client.get("/timeline/")
    assert shows(response, "Alice @alice")
    assert f'src="/media/{avatars.avatar_name(alice.uid, token, 96)}"' in page_text(response)


def test_a_changed_display_name_shows_on_the_cards(alice):
    from accounts.services import update_name

    posting.post_status(alice.uid, "hello")
    update_name(alice.uid, "Alice Liddell")
    assert shows(alice.client.get("/"), "Alice Liddell @alice")


def test_people_lists_show_avatars(client, alice, bob):
    from timeline.graph.services import follow_user

    follow_user(bob.uid, alice.uid)
    token = profiles.set_avatar(bob.uid, picture())
    response = client.get("/u/alice/followers/")
    assert avatars.avatar_name(bob.uid, token, 96) in page_text(response)


def test_media_names_the_file_system_refuses_are_not_found(client):
    assert client.get("/media/" + "x" * 5000).status_code == 404
    assert client.get("/media/avatars/1/nothing-96.webp").status_code == 404


def test_a_bad_location_is_said_beside_its_field(alice):
    response = alice.client.post("/accounts/profile/", {"bio": "", "location": "a\u202eb"})
    assert response.status_code == 400
    assert re.search(r'field-invalid">\s*<label for="id_location"', page_text(response))
    assert shows(response, "Character 2 is a bidi override")
    assert "location" not in get_user(alice.uid)


def test_closing_an_account_deletes_its_avatar(alice):
    from accounts.services import close_account

    token = profiles.set_avatar(alice.uid, picture())
    close_account(alice.uid)
    assert not default_storage.exists(avatars.avatar_name(alice.uid, token, 96))
