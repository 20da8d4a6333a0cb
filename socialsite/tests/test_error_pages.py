import shutil

import pytest
from django.conf import settings
from django.test import Client, RequestFactory, override_settings

from socialsite.embedded_redis import throwaway
from socialsite.views import server_error
from timeline.feeds import selectors as feeds
from timeline.posting import services as posting
from timeline.tests.pages import shows


@pytest.fixture
def own_redis():
    """A Redis server of the test's own, which it may stop and start; the site uses it.
    One server in the cluster suite too, on purpose: what is tested is the site's answer
    while its Redis is down, the same for one server as for a cluster's node (the
    failover test covers a cluster's node changing hands)."""
    server = throwaway()
    url = server.start()
    caches = {alias: {**config, "LOCATION": url} for alias, config in settings.CACHES.items()}
    with override_settings(CACHES=caches):
        yield server
    server.stop()
    shutil.rmtree(server.data_dir, ignore_errors=True)


def as_a_browser(client: Client) -> Client:
    """The test client re-raises a view's exception; a browser gets the error page."""
    client.raise_request_exception = False
    return client


def is_the_outage_page(response) -> bool:
    return (
        response.status_code == 503
        and shows(response, "The site can't reach its database (Redis) right now")
        and "Traceback" not in response.content.decode()
    )


def test_with_redis_down_pages_say_so_and_come_back_by_themselves(own_redis, client, make_user):
    alice = make_user("alice")
    posting.post_status(alice.uid, "still here")
    client = as_a_browser(client)
    assert client.get("/timeline/").status_code == 200

    own_redis.stop()
    response = client.get("/timeline/")
    assert is_the_outage_page(response)
    assert response["Retry-After"]

    own_redis.start()
    response = client.get("/timeline/")
    assert response.status_code == 200
    assert shows(response, "No statuses yet.")  # a throwaway server keeps nothing


def test_with_redis_down_a_logged_in_user_gets_the_outage_page_and_keeps_their_cookie(
    own_redis, make_user
):
    alice = make_user("alice")
    as_a_browser(alice.client)
    cookie = alice.client.cookies[settings.SESSION_COOKIE_NAME].value
    own_redis.stop()
    # The session is read before any view touches Redis (in the context processor and
    # in the 404 handler); both must end in the outage page, not an anonymous page.
    for url in ["/accounts/login/", "/no-such-page/", "/"]:
        response = alice.client.get(url)
        assert is_the_outage_page(response), url
        assert settings.SESSION_COOKIE_NAME not in response.cookies
    assert alice.client.cookies[settings.SESSION_COOKIE_NAME].value == cookie

    own_redis.start()
    assert alice.client.get("/").status_code == 200


def test_with_redis_down_posting_says_so(own_redis, make_user):
    browser = as_a_browser(make_user("alice").client)
    own_redis.stop()
    assert is_the_outage_page(browser.post("/statuses/", {"message": "lost?"}))


def test_an_unexpected_error_gets_the_500_page_without_a_traceback():
    request = RequestFactory().get("/")
    try:
        raise RuntimeError("secret detail")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    assert shows(response, "Something went wrong")
    assert "secret detail" not in response.content.decode()


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_is_refused_and_changes_nothing(make_user, redis_conn):
    alice = make_user("alice")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice.user)
    response = strict.post("/statuses/", {"message": "forged"})
    assert response.status_code == 403
    assert shows(response, "missing its security token")
    assert feeds.get_status_messages(alice.uid) == []


def test_an_unknown_address_gets_the_404_page(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert shows(response, "There is nothing at this address.")


@pytest.mark.django_db
def test_an_unknown_admin_address_gets_the_admins_404_page(admin_client):
    response = admin_client.get("/admin/no-such-page/")
    assert response.status_code == 404
    assert shows(response, "Django administration") and shows(response, "Not found")
    assert shows(response, "There is nothing at this address.")
    # An address that is a page but for its slash still goes there.
    assert admin_client.get("/admin/redis/dashboard").url == "/admin/redis/dashboard/"


def test_a_request_for_a_foreign_host_gets_the_400_page(client):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert shows(response, "Bad request")
