import pytest

from timeline.posting import services as posting
from timeline.statuses.selectors import get_status
from timeline.tests.pages import shows


@pytest.mark.parametrize(
    "path", ["/accounts/logout/", "/u/bob/follow/", "/statuses/{sid}/delete/", "/statuses/"]
)
def test_a_get_on_a_post_only_address_gets_the_sites_405_page(alice, bob, path):
    sid = posting.post_status(alice.uid, "hello")
    response = alice.client.get(path.format(sid=sid))
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    assert shows(response, "Method not allowed")
    assert shows(response, "only takes a form's POST")
    # The site's page, with its nav (the user is still logged in), and nothing changed.
    assert shows(response, "Log out")
    assert get_status(sid) is not None


def test_a_visitor_gets_the_405_page_too(client):
    response = client.get("/accounts/logout/")
    assert response.status_code == 405 and shows(response, "Method not allowed")
    assert shows(response, "Log in")


def test_a_405_naming_other_methods_says_which(alice):
    response = alice.client.post("/likes/")
    assert response.status_code == 405
    assert "GET" in response["Allow"]
    assert shows(response, "takes only GET requests, not POST")
