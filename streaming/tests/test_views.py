import html
import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.services import create_user, sign_up, uid_for_login
from streaming.services import create_stream_key, list_stream_keys, uid_for_stream_key

pytestmark = pytest.mark.django_db


CREATE = reverse("streaming:create_key")
SETTINGS = reverse("accounts:settings")


@pytest.fixture
def reader_client():
    client = Client()
    client.force_login(sign_up("reader", "a long password 123", "Reader"))
    return client


@pytest.fixture
def reader(reader_client):
    return uid_for_login("reader")


def messages_of(response) -> list[str]:
    """The messages the page shows."""
    shown = re.findall(r'<li class="message [^"]*" role="status">(.*?)</li>', response.text, re.S)
    return [html.unescape(message) for message in shown]


def test_a_new_key_is_shown_once_never_cached_and_listed_by_name(reader_client, reader):
    response = reader_client.post(CREATE, {"key-name": "my bot"})
    assert response.status_code == 200
    key = html.unescape(re.search(r'<code id="stream-key"[^>]*>(.*?)</code>', response.text)[1])
    assert "no-store" in response["Cache-Control"]
    assert uid_for_stream_key(key) == reader
    settings_page = reader_client.get(SETTINGS).content.decode()
    assert "my bot" in settings_page
    assert key not in settings_page


def test_the_settings_page_lists_keys_with_a_revoke_button_each(reader_client, reader):
    create_stream_key(reader, "first")
    create_stream_key(reader, "second")
    page = reader_client.get(SETTINGS).content.decode()
    for key in list_stream_keys(reader):
        assert reverse("streaming:revoke_key", args=[key["id"]]) in page
    assert page.index("second") < page.index("first")
    assert "never" in page
    assert 'name="key-name"' in page


def test_a_name_too_long_is_refused_with_a_message_and_makes_no_key(reader_client, reader):
    response = reader_client.post(CREATE, {"key-name": "x" * 51}, follow=True)
    assert response.redirect_chain[-1][0] == SETTINGS + "#settings-apps"
    assert any("at most 50 characters" in m for m in messages_of(response))
    assert list_stream_keys(reader) == []


@override_settings(STREAM_KEYS_PER_USER=1)
def test_a_key_past_the_limit_is_refused_with_a_message(reader_client, reader):
    create_stream_key(reader)
    response = reader_client.post(CREATE, {"key-name": "one more"}, follow=True)
    assert any("revoke one first" in m for m in messages_of(response))
    assert len(list_stream_keys(reader)) == 1


def test_revoking_a_key_removes_it(reader_client, reader):
    key = create_stream_key(reader, "old")
    key_id = list_stream_keys(reader)[0]["id"]
    response = reader_client.post(reverse("streaming:revoke_key", args=[key_id]), follow=True)
    assert response.redirect_chain[-1][0] == SETTINGS + "#settings-apps"
    assert any("revoked" in m for m in messages_of(response))
    assert uid_for_stream_key(key) is None


def test_no_one_revokes_someone_elses_key(reader_client):
    writer = create_user("writer", "Writer")
    key = create_stream_key(writer)
    key_id = list_stream_keys(writer)[0]["id"]
    response = reader_client.post(reverse("streaming:revoke_key", args=[key_id]), follow=True)
    assert any("no such stream key" in m for m in messages_of(response))
    assert uid_for_stream_key(key) == writer


def test_keys_are_only_made_and_revoked_by_post_when_logged_in(reader_client, reader):
    assert reader_client.get(CREATE).status_code == 405
    visitor = Client()
    response = visitor.post(CREATE, {"key-name": "sneaky"})
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]
    assert list_stream_keys(reader) == []
