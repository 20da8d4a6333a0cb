"""URLs reversed once per shape match reverse(), and follow a changed URLconf."""

import pytest
from django.urls import reverse

from socialsite.links import plain_url, url


@pytest.mark.parametrize(
    ("name", "arg"),
    [("status", 7), ("delete_status", 123456789), ("profile", "Bob_1"), ("tag", "redis")],
)
def test_url_matches_reverse(name, arg):
    assert url(name, arg) == reverse(name, args=[arg])


def test_url_follows_a_changed_urlconf(settings):
    assert url("status", 7) == "/statuses/7/"
    assert plain_url("global") == "/timeline/"
    settings.ROOT_URLCONF = "socialsite.tests.prefixed_urls"
    assert url("status", 7) == "/prefix/statuses/7/"
    assert plain_url("global") == "/prefix/timeline/"
