"""Custom emojis: uploaded by staff in the admin (PNG, GIF, WebP; bad ones refused),
shown as pictures in statuses, names and bios on the pages, and listed and named by
the client API."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from accounts import emojis
from accounts.services import update_name
from timeline.posting.services import post_status
from timeline.tests.pages import shows

pytestmark = pytest.mark.django_db


def picture(kind: str = "PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (64, 48), (200, 30, 30, 255)).save(out, kind)
    return out.getvalue()


@pytest.fixture
def staff_client(client):
    staff = User.objects.create_user("operator", password="operator-password-1", is_staff=True)
    client.force_login(staff)
    return client


def upload(client, shortcode: str, data: bytes, name: str = "e.png"):
    image = SimpleUploadedFile(name, data, content_type="image/png")
    form = {"shortcode": shortcode, "category": "faces", "image": image}
    return client.post(reverse("admin:redis_custom_emojis"), form)


@pytest.mark.parametrize("kind", ["PNG", "GIF", "WEBP"])
def test_staff_upload_an_emoji_in_the_admin_and_it_is_listed(staff_client, kind):
    response = upload(staff_client, "blobcat", picture(kind))
    assert response.status_code == 302
    page = staff_client.get(reverse("admin:redis_custom_emojis"))
    assert shows(page, ":blobcat:") and shows(page, "faces")
    found = emojis.all_emojis()["blobcat"]
    with default_storage.open(emojis.emoji_name("blobcat", found["token"])) as stored_file:
        stored = Image.open(io.BytesIO(stored_file.read()))
    assert stored.format == "WEBP"


def test_bad_emojis_are_refused_and_store_nothing(staff_client):
    assert upload(staff_client, "no spaces", picture()).status_code == 400
    assert upload(staff_client, "x", picture()).status_code == 400
    assert upload(staff_client, "fake", b"not a picture at all").status_code == 400
    jpeg = io.BytesIO()
    Image.new("RGB", (8, 8)).save(jpeg, "JPEG")
    response = upload(staff_client, "jpeg", jpeg.getvalue())
    assert response.status_code == 400 and shows(response, "PNG, GIF or WebP")
    assert emojis.all_emojis() == {}


def test_only_staff_reach_the_emoji_page(alice):
    response = alice.client.post(reverse("admin:redis_custom_emojis"), {"shortcode": "x"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert emojis.all_emojis() == {}


def test_an_emoji_is_deleted_after_confirming(staff_client):
    emojis.add_emoji("wave", picture())
    path = reverse("admin:redis_custom_emoji_delete", args=["wave"])
    assert staff_client.get(path).status_code == 200 and "wave" in emojis.all_emojis()
    assert staff_client.post(path).status_code == 302
    assert emojis.all_emojis() == {}
    assert staff_client.post(path).status_code == 404


def test_shortcodes_show_as_pictures_in_statuses_names_and_bios(alice):
    emojis.add_emoji("blobcat", picture())
    update_name(alice.uid, "Alice :blobcat:")
    status_id = post_status(alice.uid, "hello :blobcat: and :unknown:")
    page = alice.client.get(f"/statuses/{status_id}/").content.decode()
    assert page.count('class="emoji"') >= 2 and 'alt=":blobcat:"' in page
    assert ":unknown:" in page
    profile = alice.client.get("/u/alice/").content.decode()
    assert 'class="name">Alice <img class="emoji"' in profile


def test_emojify_escapes_what_it_is_given():
    emojis.add_emoji("ok", picture())
    shown = str(emojis.emojify("<b>:ok:</b>"))
    assert shown.startswith('&lt;b&gt;<img class="emoji"') and "<b>" not in shown
