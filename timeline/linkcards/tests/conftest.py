import pytest
from django.test import override_settings

from socialsite.testing.pages import Page, page_server

from .site import jpeg_with_gps, og_page


@pytest.fixture
def pages():
    """A local site (127.0.0.1, let through for the test) with an OpenGraph page and its
    picture at /og."""
    with (
        override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=True),
        page_server() as server,
    ):
        server.pages["/og"] = Page(og_page())
        server.pages["/picture.jpg"] = Page(jpeg_with_gps(), headers={"Content-Type": "image/jpeg"})
        yield server
