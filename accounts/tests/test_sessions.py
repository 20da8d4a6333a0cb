"""Log out everywhere, and a password change that logs out the other sessions: a
session's hash depends on the user's session generation in Redis (accounts.models)."""

import pytest
from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from accounts import backends
from accounts.services import session_generation
from timeline.tests.pages import shows

PASSWORD = "a-long-pass-4-tests"
NEW_PASSWORD = "another-long-pass-5"


def is_logged_in(client) -> bool:
    response = client.get("/accounts/settings/")
    assert response.status_code in (200, 302)
    return response.status_code == 200


def logged_in_client(user: User, **options) -> Client:
    client = Client(**options)
    client.force_login(user)
    assert is_logged_in(client)
    return client


@pytest.fixture
def alice_with_password(alice):
    alice.user.set_password(PASSWORD)
    alice.user.save()
    return alice


def test_the_settings_page_has_the_password_form_and_the_log_out_everywhere_button(alice):
    page = alice.client.get("/accounts/settings/").content.decode()
    assert 'action="/accounts/password/"' in page
    assert 'name="old_password"' in page and 'name="new_password2"' in page
    assert 'action="/accounts/logout/everywhere/"' in page
    assert "Log out everywhere" in page


def test_logging_out_everywhere_ends_every_session_of_the_user_and_no_one_elses(alice, bob):
    here, elsewhere = logged_in_client(alice.user), logged_in_client(alice.user)
    assert is_logged_in(bob.client)
    response = here.post("/accounts/logout/everywhere/", follow=True)
    assert shows(response, "You are logged out everywhere.")
    assert not is_logged_in(here)
    assert not is_logged_in(elsewhere)
    assert is_logged_in(bob.client)
    assert session_generation(alice.uid) == 1
    # Logging in again starts a session of the new generation.
    assert is_logged_in(logged_in_client(alice.user))


def test_a_cached_user_does_not_keep_an_ended_session_alive(alice):
    elsewhere = logged_in_client(alice.user)  # its page view cached the user
    alice.client.post("/accounts/logout/everywhere/")
    assert cache.get(backends.user_cache_key(alice.user.pk)) is not None
    assert not is_logged_in(elsewhere)


def test_a_session_made_before_session_generations_stays_valid(alice):
    """Until the user ends their sessions, a session's hash is Django's own."""
    session = alice.client.session
    session[HASH_SESSION_KEY] = User.objects.get(pk=alice.user.pk).get_session_auth_hash()
    session.save()
    assert is_logged_in(alice.client)


def test_logging_out_everywhere_takes_a_post_with_a_csrf_token(alice):
    elsewhere = logged_in_client(alice.user)
    checked = logged_in_client(alice.user, enforce_csrf_checks=True)
    assert alice.client.get("/accounts/logout/everywhere/").status_code == 405
    assert checked.post("/accounts/logout/everywhere/").status_code == 403
    assert session_generation(alice.uid) == 0
    assert is_logged_in(elsewhere) and is_logged_in(checked) and is_logged_in(alice.client)


def test_a_visitor_logging_out_everywhere_is_sent_to_log_in(client, db):
    response = client.post("/accounts/logout/everywhere/")
    assert response.status_code == 302
    assert response.url.startswith("/accounts/login/")


def change_password(client, old=PASSWORD, new=NEW_PASSWORD, again=None):
    return client.post(
        "/accounts/password/",
        {"old_password": old, "new_password1": new, "new_password2": again or new},
        follow=True,
    )


def test_changing_the_password_keeps_this_session_and_ends_the_others(alice_with_password):
    alice = alice_with_password
    here, elsewhere = logged_in_client(alice.user), logged_in_client(alice.user)
    old_session_key = here.session.session_key
    response = change_password(here)
    assert shows(response, "Your password is changed. Your other sessions are logged out.")
    assert is_logged_in(here)
    assert here.session.session_key != old_session_key
    assert not is_logged_in(elsewhere)
    assert Client().login(username="alice", password=NEW_PASSWORD)
    assert not Client().login(username="alice", password=PASSWORD)


@pytest.mark.parametrize(
    ("old", "new", "again", "error"),
    [
        ("wrong", NEW_PASSWORD, None, "Your old password was entered incorrectly."),
        (PASSWORD, NEW_PASSWORD, NEW_PASSWORD + "x", "The two password fields didn"),
        (PASSWORD, "password", None, "This password is too common."),
        (PASSWORD, "short1x", None, "This password is too short."),
        (PASSWORD, "x" * 50_001, None, "at most 1024 characters"),
    ],
)
def test_a_bad_password_change_is_refused_and_ends_nothing(
    alice_with_password, old, new, again, error
):
    alice = alice_with_password
    here, elsewhere = logged_in_client(alice.user), logged_in_client(alice.user)
    response = change_password(here, old, new, again)
    assert response.status_code == 400
    assert shows(response, error)
    assert is_logged_in(here) and is_logged_in(elsewhere)
    assert session_generation(alice.uid) == 0
    assert User.objects.get(pk=alice.user.pk).check_password(PASSWORD)


def test_changing_the_password_takes_a_post_with_a_csrf_token(alice_with_password):
    alice = alice_with_password
    checked = logged_in_client(alice.user, enforce_csrf_checks=True)
    assert checked.get("/accounts/password/").status_code == 405
    response = checked.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 403
    assert User.objects.get(pk=alice.user.pk).check_password(PASSWORD)
    assert is_logged_in(checked)
