"""Failed logins are limited per login and per address, signups per address: over a
limit the password isn't even checked, the page says 429 with Retry-After, and a
correct login is kept out no longer than the limit's window."""

import urllib.error
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User

from accounts.services import sign_up
from socialsite import ratelimit
from socialsite.testing.waits import wait_for
from timeline.tests.pages import shows

PASSWORD = "correct horse battery"
LOGIN = "/accounts/login/"


@pytest.fixture
def password_checks(monkeypatch) -> list[str]:
    """The logins whose password the login form checked (hashing it: the costly part)."""
    import django.contrib.auth.forms as auth_forms

    checked, authenticate = [], auth_forms.authenticate

    def counting(request, **credentials):
        checked.append(credentials["username"])
        return authenticate(request, **credentials)

    monkeypatch.setattr(auth_forms, "authenticate", counting)
    return checked


def limits(settings, **changed) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **changed}


def log_in(client, login: str, password: str, address: str = "10.0.0.1"):
    return client.post(LOGIN, {"username": login, "password": password}, REMOTE_ADDR=address)


def test_a_login_failing_too_often_is_refused_without_checking_the_password(
    client, db, settings, password_checks
):
    limits(settings, login_failures_per_login=(2, 900))
    sign_up("alice", PASSWORD, "Alice")
    sign_up("bob", PASSWORD, "Bob")
    assert log_in(client, "alice", "wrong").status_code == 400
    assert log_in(client, "ALICE", "wrong again", "10.0.0.2").status_code == 400

    refused = log_in(client, "alice", PASSWORD, "10.0.0.3")
    assert refused.status_code == 429
    # 2 in 900 s: one try comes back every 450 s, less the time the test has taken.
    assert 440 <= int(refused["Retry-After"]) <= 450
    assert shows(refused, "Too many failed logins for now: try again in 8 minutes.")
    assert "_auth_user_id" not in client.session
    assert password_checks == ["alice", "alice"]
    # Other logins are not held back.
    assert log_in(client, "bob", PASSWORD).status_code == 302


def test_an_address_failing_too_often_is_refused_whatever_login_it_tries(
    client, db, settings, password_checks
):
    limits(settings, login_failures_per_ip=(3, 300))
    sign_up("alice", PASSWORD, "Alice")
    for login in ("alice", "bob", "carol"):
        assert log_in(client, login, "guess").status_code == 400
    assert log_in(client, "alice", PASSWORD).status_code == 429
    assert len(password_checks) == 3
    assert log_in(client, "alice", PASSWORD, "10.0.0.9").status_code == 302


def test_a_correct_login_is_kept_out_no_longer_than_the_window(client, db, settings):
    # (Every refused try counts against the address: the loop below tries often.)
    limits(settings, login_failures_per_login=(2, 2), login_failures_per_ip=(1000, 60))
    sign_up("alice", PASSWORD, "Alice")
    # Two failures at once (as log_in would count them, without hashing: quick enough
    # that the window can't pass before the login below).
    for _ in range(2):
        ratelimit.wait_seconds("login_failures_per_login", "login:alice")
    assert log_in(client, "alice", PASSWORD).status_code == 429
    wait_for(lambda: log_in(client, "alice", PASSWORD).status_code == 302, timeout=5)


def test_a_good_login_starts_the_logins_failures_afresh(client, db, settings):
    limits(settings, login_failures_per_login=(2, 900))
    sign_up("alice", PASSWORD, "Alice")
    log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD).status_code == 302
    assert ratelimit.whole_again_at("login_failures_per_login", "login:alice") is None


def test_signups_are_limited_per_address_and_refused_ones_make_nothing(client, db, settings):
    limits(settings, signups_per_ip=(1, 3600))
    form = {"name": "", "password1": PASSWORD, "password2": PASSWORD}
    # A form with errors isn't a signup: it doesn't count.
    assert client.post("/accounts/signup/", {**form, "login": "a b"}).status_code == 400
    assert client.post("/accounts/signup/", {**form, "login": "alice"}).status_code == 302
    client.logout()

    refused = client.post("/accounts/signup/", {**form, "login": "bob"})
    assert refused.status_code == 429
    assert shows(refused, "Too many signups for now: try again in 60 minutes.")
    assert not User.objects.filter(username="bob").exists()
    other = client.post("/accounts/signup/", {**form, "login": "bob"}, REMOTE_ADDR="10.0.0.2")
    assert other.status_code == 302


def test_a_refused_login_counts_against_its_address(client, db, settings):
    limits(settings, login_failures_per_login=(1, 900), login_failures_per_ip=(3, 900))
    assert log_in(client, "alice", "wrong").status_code == 400
    assert log_in(client, "alice", "wrong").status_code == 429
    assert log_in(client, "alice", "wrong").status_code == 429
    # Three failures from the address now: any login from it is refused.
    assert log_in(client, "bob", "anything").status_code == 429
    assert log_in(client, "bob", "anything", "10.0.0.2").status_code == 400


@pytest.mark.django_db(transaction=True)
def test_daphne_refuses_an_address_over_its_limit_before_django(daphne_server):
    """Not even CSRF is checked: the request never reaches Django, and isn't counted."""
    count, _ = django_settings.RATE_LIMITS["login_failures_per_ip"]
    for _ in range(count):
        ratelimit.wait_seconds("login_failures_per_ip", "ip:127.0.0.1")
    held = ratelimit.whole_again_at("login_failures_per_ip", "ip:127.0.0.1")

    request = urllib.request.Request(f"{daphne_server}{LOGIN}", data=b"username=x&password=y")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 429
    assert int(refused.value.headers["Retry-After"]) > 0
    assert "Too many failed logins for now" in refused.value.read().decode()
    assert ratelimit.whole_again_at("login_failures_per_ip", "ip:127.0.0.1") == held
    with urllib.request.urlopen(f"{daphne_server}{LOGIN}", timeout=10) as page:
        assert page.status == 200
