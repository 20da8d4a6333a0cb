"""Failed logins are limited per address, and per login for browsers that never logged
in as it, per browser for those that did (device cookies); signups per address; the
settings page's writes per account. Over a limit the password isn't even checked, the
page says 429 with Retry-After, a correct login is kept out no longer than the limit's
window, and strangers guessing a password can't keep its owner's browser out."""

import io
import urllib.error
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from accounts import devices
from accounts.services import get_user, sign_up
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


def logged_in_before(login: str) -> Client:
    """A browser that logged in as `login` (and out again): it has a device cookie."""
    browser = Client()
    assert log_in(browser, login, PASSWORD).status_code == 302
    browser.post("/accounts/logout/")
    return browser


def test_the_owners_browser_may_try_while_strangers_hold_the_login_back(db, settings):
    limits(settings, login_failures_per_login=(2, 900))
    sign_up("alice", PASSWORD, "Alice")
    owners = logged_in_before("alice")
    stranger = Client()
    for _ in range(2):
        assert log_in(stranger, "alice", "guess", "10.0.0.2").status_code == 400
    # Browsers that never logged in as alice are held back, the right password too...
    assert log_in(stranger, "alice", PASSWORD, "10.0.0.2").status_code == 429
    assert log_in(Client(), "alice", PASSWORD, "10.0.0.3").status_code == 429
    # ...but not hers: a typo is checked and counted as hers, the password lets her in.
    assert log_in(owners, "alice", "typo").status_code == 400
    assert log_in(owners, "ALICE", PASSWORD).status_code == 302


def test_a_browser_failing_too_often_is_held_back_alone(db, settings, password_checks):
    limits(settings, login_failures_per_login=(2, 900), login_failures_per_device=(2, 900))
    sign_up("alice", PASSWORD, "Alice")
    owners = logged_in_before("alice")
    for _ in range(2):
        assert log_in(owners, "alice", "typo").status_code == 400
    refused = log_in(owners, "alice", PASSWORD)
    assert refused.status_code == 429
    assert shows(refused, "Too many failed logins for now: try again in 8 minutes.")
    assert password_checks == ["alice", "alice", "alice"]
    # Another browser's allowance is the login's, which the owner's typos didn't touch.
    assert log_in(Client(), "alice", PASSWORD, "10.0.0.2").status_code == 302


def test_a_good_login_gives_a_fresh_device_cookie_sent_only_to_the_login_page(db, settings):
    limits(settings, login_failures_per_device=(2, 900))
    sign_up("alice", PASSWORD, "Alice")
    owners = logged_in_before("alice")
    first = owners.cookies[settings.DEVICE_COOKIE_NAME]
    assert first["path"] == "/accounts/login/"
    assert first["httponly"] and first["samesite"] == "Lax"
    assert first["max-age"] == settings.DEVICE_COOKIE_DAYS * 24 * 3600
    assert log_in(owners, "alice", "typo").status_code == 400
    assert log_in(owners, "alice", PASSWORD).status_code == 302
    owners.post("/accounts/logout/")
    assert owners.cookies[settings.DEVICE_COOKIE_NAME].value != first.value
    # The new cookie starts with no failures: two typos again before it is held back.
    for _ in range(2):
        assert log_in(owners, "alice", "typo").status_code == 400
    assert log_in(owners, "alice", PASSWORD).status_code == 429


@pytest.mark.parametrize(
    "cookie",
    [
        "bob's",
        lambda good: good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB"),
        lambda good: signing.dumps({"alice": "made-up"}, salt="another", compress=True),
        lambda good: signing.dumps(["alice"], salt=devices.SALT),
        lambda good: "not even signed",
    ],
    ids=["another login's", "edited", "signed otherwise", "not a mapping", "garbage"],
)
def test_a_device_cookie_vouches_only_for_its_own_login_as_signed(db, settings, cookie):
    limits(settings, login_failures_per_login=(1, 900))
    sign_up("alice", PASSWORD, "Alice")
    sign_up("bob", PASSWORD, "Bob")
    browser = logged_in_before("bob")
    name = settings.DEVICE_COOKIE_NAME
    if callable(cookie):
        browser.cookies[name] = cookie(browser.cookies[name].value)
    assert log_in(Client(), "alice", "guess", "10.0.0.2").status_code == 400
    assert log_in(browser, "alice", PASSWORD).status_code == 429


def test_the_device_cookie_keeps_a_shared_browsers_last_logins(db, settings):
    limits(settings, login_failures_per_login=(1, 900))
    logins = [f"user{n}" for n in range(devices.DEVICE_LOGINS_KEPT + 1)]
    browser = Client()
    for login in logins:
        sign_up(login, PASSWORD, login)
        assert log_in(browser, login, PASSWORD).status_code == 302
        browser.post("/accounts/logout/")
    for login in logins:
        assert log_in(Client(), login, "guess", "10.0.0.2").status_code == 400
    kept = [log_in(browser, login, PASSWORD).status_code for login in logins]
    assert kept == [429] + [302] * devices.DEVICE_LOGINS_KEPT


def avatar() -> SimpleUploadedFile:
    picture = io.BytesIO()
    Image.new("RGB", (40, 40), (200, 30, 30)).save(picture, "PNG")
    return SimpleUploadedFile("me.png", picture.getvalue(), content_type="image/png")


# name: (limit, what its 429 calls it, URL name and args, POST data)
SETTINGS_WRITES = {
    "display name": ("profile_changes", "profile changes", ("accounts:settings", []),
                     lambda: {"name": "Ada"}),
    "profile": ("profile_changes", "profile changes", ("accounts:update_profile", []),
                lambda: {"bio": "hello", "website": "", "location": ""}),
    "avatar upload": ("avatar_changes", "avatar changes", ("accounts:upload_avatar", []),
                      lambda: {"avatar": avatar()}),
    "avatar removal": ("avatar_changes", "avatar changes", ("accounts:remove_avatar", []), dict),
    "log out everywhere": ("settings_changes", "settings changes",
                           ("accounts:logout_everywhere", []), dict),
    "stream key revoked": ("settings_changes", "settings changes",
                           ("streaming:revoke_key", ["nokey"]), dict),
    "app revoked": ("settings_changes", "settings changes", ("api:revoke_app", [404]), dict),
}  # fmt: skip


def keyspace(redis_conn) -> dict:
    """Every key but the rate limits' and the cache's (sessions, the cached user)."""
    return {
        key: redis_conn.dump(key)
        for key in redis_conn.scan_iter(count=1000)
        if not key.startswith(("ratelimit:", "cache:"))
    }


@pytest.mark.parametrize("write", SETTINGS_WRITES.values(), ids=SETTINGS_WRITES)
def test_settings_writes_are_limited_per_account(make_user, redis_conn, settings, tmp_path, write):
    name, what, (url, args), data = write
    settings.MEDIA_ROOT = tmp_path
    limits(settings, **{name: (1, 3600)})
    alice = make_user("alice")
    alice.client.post(reverse(url, args=args), data())
    alice.client.force_login(alice.user)  # logging out everywhere logs this client out
    before = keyspace(redis_conn)

    refused = alice.client.post(reverse(url, args=args), data())
    assert refused.status_code == 429
    assert 3590 <= int(refused["Retry-After"]) <= 3600
    assert shows(refused, f"Too many {what} for now: try again in 60 minutes.")
    assert keyspace(redis_conn) == before
    # Per account: another's are theirs.
    bob = make_user("bob")
    assert bob.client.post(reverse(url, args=args), data()).status_code != 429


def test_forty_name_and_bio_changes_in_a_row_are_not_all_taken(alice):
    count, _ = django_settings.RATE_LIMITS["profile_changes"]
    answers = []
    for n in range(40):
        answers.append(alice.client.post(reverse("accounts:settings"), {"name": f"Ada {n}"}))
        answers.append(alice.client.post(reverse("accounts:update_profile"), {"bio": f"bio {n}"}))
    assert [a.status_code for a in answers] == [302] * count + [429] * (80 - count)
    assert get_user(alice.uid)["name"] == f"Ada {count // 2 - 1}"


def test_twenty_five_avatar_uploads_in_a_row_are_not_all_taken(alice, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    count, _ = django_settings.RATE_LIMITS["avatar_changes"]
    upload = reverse("accounts:upload_avatar")
    answers = [alice.client.post(upload, {"avatar": avatar()}).status_code for _ in range(25)]
    assert answers == [302] * count + [429] * (25 - count)
