import pytest
from django.contrib.auth.models import User

from accounts.auth import SESSION_UID
from accounts.services import (
    get_user,
    get_user_by_login,
    search_users,
    set_suspended,
    sign_up,
    uid_for_login,
)
from timeline.tests.pages import shows

PASSWORD = "a-long-pass-4-tests"


SIGNUP = {"login": "alice", "name": "Alice A.", "password1": PASSWORD, "password2": PASSWORD}


def sent(**changes) -> dict:
    """The signup form's fields, as sent, with `changes`."""
    return {**SIGNUP, **changes}


@pytest.mark.django_db
def test_the_signup_page_has_the_form(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    assert 'name="login"' in response.content.decode()


@pytest.mark.django_db
def test_signing_up_makes_the_user_and_profile_and_logs_in(client):
    response = client.post("/accounts/signup/", sent(), follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert shows(response, "Welcome, @alice!")
    user = User.objects.get(username="alice")
    assert user.check_password(PASSWORD)
    profile = get_user_by_login("alice")
    assert profile["name"] == "Alice A."
    assert client.session[SESSION_UID] == profile["id"]
    assert 'id="timeline"' in response.content.decode()


@pytest.mark.django_db
def test_a_blank_display_name_becomes_the_login(client):
    client.post("/accounts/signup/", sent(name=""))
    assert get_user_by_login("alice")["name"] == "alice"


def nothing_was_made(login: str) -> bool:
    """No Django user, no login taken, and no profile anyone could find."""
    return (
        not User.objects.exists() and uid_for_login(login) is None and search_users("") == ([], "")
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"login": ""}, "This field is required."),
        ({"login": "no spaces"}, "Logins are 1 to 30 letters, digits or underscores."),
        ({"login": "x" * 31}, "at most 30 characters"),
        ({"login": "émile"}, "Logins are 1 to 30 letters, digits or underscores."),
        ({"login": "Admin"}, "That login is reserved."),
        ({"password2": "something-else-4"}, "The two passwords differ."),
        ({"password1": "p" * 50_001, "password2": "p" * 50_001}, "at most 1024 characters"),
        ({"name": "n" * 50_001}, "at most 50 characters"),
        ({"name": "Alice\u202eevil"}, "a bidi override (U+202E)"),
        ({"name": "Al\u200bice"}, "a zero-width character (U+200B)"),
        ({"password1": "short", "password2": "short"}, "This password is too short."),
        ({"password1": "password", "password2": "password"}, "This password is too common."),
        (
            {
                "login": "alice_liddell",
                "password1": "alice_liddell1",
                "password2": "alice_liddell1",
            },
            "The password is too similar to the username.",
        ),
    ],
)
def test_bad_signups_are_refused_with_a_message(client, changes, error):
    form = sent(**changes)
    response = client.post("/accounts/signup/", form)
    assert response.status_code == 400
    assert shows(response, error)
    assert nothing_was_made(form["login"])
    assert SESSION_UID not in client.session


@pytest.mark.django_db
def test_a_login_taken_in_any_case_is_refused(client):
    sign_up("alice", PASSWORD, "The first Alice")
    response = client.post("/accounts/signup/", sent(login="ALICE"))
    assert response.status_code == 400
    assert shows(response, "That login is taken.")
    assert User.objects.count() == 1
    assert get_user_by_login("alice")["name"] == "The first Alice"


@pytest.mark.django_db
def test_logging_in_keeps_the_uid_in_the_session_and_ignores_case(client):
    user = sign_up("Alice", PASSWORD, "Alice")
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == "/"
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.session[SESSION_UID] == uid_for_login("Alice")


@pytest.mark.django_db
def test_logging_in_goes_to_next(client):
    sign_up("alice", PASSWORD, "Alice")
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD, "next": "/u/alice/"}
    )
    assert response.url == "/u/alice/"


@pytest.mark.django_db
def test_a_wrong_password_is_refused(client):
    sign_up("alice", PASSWORD, "Alice")
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 400
    assert shows(response, "Please enter a correct")
    assert "_auth_user_id" not in client.session


def test_logging_out_takes_a_post(make_user):
    alice = make_user("alice")
    assert alice.client.get("/accounts/logout/").status_code == 405
    response = alice.client.post("/accounts/logout/", follow=True)
    assert shows(response, "You are logged out.")
    assert "_auth_user_id" not in alice.client.session
    assert shows(response, "Sign up")


def test_a_session_without_the_uid_gets_it_on_first_use(make_user):
    alice = make_user("alice")
    session = alice.client.session
    del session[SESSION_UID]
    session.save()
    assert alice.client.get("/").status_code == 200
    assert alice.client.session[SESSION_UID] == alice.uid


def test_settings_show_and_change_the_display_name(make_user):
    alice = make_user("alice")
    response = alice.client.get("/accounts/settings/")
    assert response.status_code == 200
    assert 'value="Alice"' in response.content.decode()
    response = alice.client.post("/accounts/settings/", {"name": "  Alice Liddell "}, follow=True)
    assert shows(response, "Your display name is saved.")
    assert get_user(alice.uid)["name"] == "Alice Liddell"


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("   ", "The display name can't be blank."),
        ("x" * 51, "at most 50 characters"),
        ("x" * 50_001, "at most 150 characters"),
        ("Ali\x07ce", "a control character (U+0007)"),
        ("Alice\u2066x", "a bidi isolate (U+2066)"),
    ],
)
def test_a_bad_display_name_is_refused(make_user, name, error):
    alice = make_user("alice")
    response = alice.client.post("/accounts/settings/", {"name": name})
    assert response.status_code == 400
    assert shows(response, error)
    assert get_user(alice.uid)["name"] == "Alice"


def test_settings_need_a_login(client, db):
    response = client.get("/accounts/settings/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/accounts/settings/"


def test_logged_in_users_are_sent_home_from_signup_and_login(make_user):
    alice = make_user("alice")
    assert alice.client.get("/accounts/signup/").url == "/"
    assert alice.client.get("/accounts/login/").url == "/"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password"), [("x" * 50_001, "secret"), ("alice", "p" * 50_001)]
)
def test_a_huge_login_or_password_is_a_form_error_not_a_crash(client, username, password):
    sign_up("alice", "a long enough password", "Alice")
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 400
    assert shows(response, "Ensure this value has at most")
    assert SESSION_UID not in client.session


@pytest.mark.django_db
def test_a_suspended_user_logging_in_is_told_they_are_suspended(client):
    sign_up("alice", PASSWORD, "Alice")
    set_suspended(uid_for_login("alice"), True)
    response = client.post("/accounts/login/", {"username": "Alice", "password": PASSWORD})
    assert response.status_code == 400
    assert shows(response, "This account is suspended")
    assert not shows(response, "correct username and password")
    assert SESSION_UID not in client.session


@pytest.mark.django_db
def test_a_wrong_password_for_a_suspended_user_says_only_that_it_is_wrong(client):
    sign_up("alice", PASSWORD, "Alice")
    set_suspended(uid_for_login("alice"), True)
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 400
    assert not shows(response, "suspended")
    assert shows(response, "correct username and password")


@pytest.mark.django_db
def test_the_welcome_links_to_people_to_follow(client):
    response = client.post("/accounts/signup/", sent(), follow=True)
    assert shows(response, "Welcome, @alice! Find people to follow.")
    assert '<a href="/directory/">Find people to follow</a>' in response.content.decode()
