import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings

from accounts.selectors import suspended_uids
from accounts.services import get_user, sign_up, uid_for_login
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.statuses.selectors import get_status
from timeline.tests.pages import shows

PASSWORD = "a-long-pass-4-tests"
DELETE = "/accounts/delete/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def leaving():
    """A user who can log in, with a status and a follower, logged in on a client."""
    sign_up("leaving", PASSWORD, "Leaving")
    client = Client()
    assert client.login(username="leaving", password=PASSWORD)
    return client


def everything(conn) -> dict:
    return {key: conn.type(key) for key in conn.scan_iter()} | {
        "users": list(User.objects.values_list("username", flat=True))
    }


def test_a_wrong_password_is_a_form_error_and_changes_nothing(leaving, bob, redis_conn):
    uid = uid_for_login("leaving")
    posting.post_status(uid, "still here")
    leaving.get("/accounts/settings/")  # the session settles (its uid, its hash)
    before = everything(redis_conn)
    for password, error in (
        ("wrong", "That is not your password: nothing was deleted."),
        ("", "This field is required."),
        ("x" * 5000, "Ensure this value has at most 1024 characters"),
    ):
        response = leaving.post(DELETE, {"delete-password": password})
        assert response.status_code == 400
        assert shows(response, "Delete my account") and shows(response, error)
    after = everything(redis_conn)
    # Only the rate limit's counter moved.
    assert {k: v for k, v in after.items() if not k.startswith("ratelimit:")} == {
        k: v for k, v in before.items() if not k.startswith("ratelimit:")
    }
    assert uid_for_login("leaving") == uid
    assert leaving.get("/accounts/settings/").status_code == 200  # still logged in


def test_deleting_the_account_purges_it_and_frees_the_login(leaving, bob, client):
    uid = uid_for_login("leaving")
    graph.follow_user(bob.uid, uid)
    graph.follow_user(uid, bob.uid)
    sid = posting.post_status(uid, "goodbye")
    other_browser = Client()
    assert other_browser.login(username="leaving", password=PASSWORD)

    response = leaving.post(DELETE, {"delete-password": PASSWORD}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    assert shows(response, "The account @leaving is deleted.")
    assert shows(response, "Log in")  # logged out here...
    assert other_browser.get("/accounts/settings/").status_code == 302  # ...and everywhere
    assert not User.objects.filter(username="leaving").exists()
    assert uid_for_login("leaving") is None
    assert client.get("/u/leaving/").status_code == 404
    assert get_status(sid)  # hidden at once, removed by the worker
    assert client.get(f"/statuses/{sid}/").status_code == 404

    call_command("worker", burst=True)
    assert get_user(uid) is None and get_status(sid) is None
    assert get_user(bob.uid)["followers"] == 0 and get_user(bob.uid)["following"] == 0
    assert uid not in suspended_uids()

    # The login is anyone's again: a new account, with nothing of the old one.
    response = client.post(
        "/accounts/signup/",
        {"login": "leaving", "name": "", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    assert shows(response, "Welcome, @leaving!")
    new = uid_for_login("leaving")
    assert new != uid and get_user(new)["posts"] == 0 and get_user(new)["followers"] == 0


def test_deleting_takes_a_post_and_a_login(leaving, client):
    assert leaving.get(DELETE).status_code == 405
    response = client.post(DELETE, {"delete-password": PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert uid_for_login("leaving") is not None


def test_tries_to_delete_are_rate_limited(leaving):
    with override_settings(RATE_LIMITS={"account_deletions": (2, 3600)}):
        for _ in range(2):
            assert leaving.post(DELETE, {"delete-password": "wrong"}).status_code == 400
        response = leaving.post(DELETE, {"delete-password": PASSWORD})
        assert response.status_code == 429 and response["Retry-After"]
    assert uid_for_login("leaving") is not None


def test_the_settings_page_has_the_delete_form(leaving):
    page = leaving.get("/accounts/settings/").content.decode()
    assert f'action="{DELETE}"' in page and 'name="delete-password"' in page
