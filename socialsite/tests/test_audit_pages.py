"""What Lighthouse checks on every page, without a browser: a meta description of the
page's own, static files under hashed names served compressed and cached for a year,
and a page's CSS + JS under 60 KB compressed."""

import gzip
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client

from socialsite.testing.world import LOGIN, World, make_world, member_pages, visitor_pages

pytestmark = pytest.mark.django_db

BUDGET = 60 * 1024
YEAR = 365 * 24 * 3600


class Head(HTMLParser):
    """The description, stylesheets and scripts a page names."""

    def __init__(self) -> None:
        super().__init__()
        self.descriptions: list[str] = []
        self.assets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        found = dict(attrs)
        if tag == "meta" and found.get("name") == "description":
            self.descriptions.append(found.get("content") or "")
        elif tag == "link" and found.get("rel") == "stylesheet":
            self.assets.append(found["href"])
        elif tag == "script" and found.get("src"):
            self.assets.append(found["src"])


@pytest.fixture
def world() -> World:
    return make_world()


def pages(world: World) -> list[tuple[Client, str]]:
    visitor, member = Client(), Client()
    member.force_login(User.objects.get(username=LOGIN))
    return [(visitor, path) for path in visitor_pages(world)] + [
        (member, path) for path in member_pages(world)
    ]


def head_of(client: Client, path: str) -> Head:
    response = client.get(path)
    assert response.status_code in (200, 404), path
    head = Head()
    head.feed(response.content.decode())
    return head


def test_every_page_has_a_description_of_its_own(world):
    seen = {}
    for client, path in pages(world):
        descriptions = head_of(client, path).descriptions
        assert len(descriptions) == 1 and len(descriptions[0]) >= 20, path
        seen[path] = descriptions[0]
    assert seen["/u/bob/"] == "Statuses by Bob Hopper (@bob) on socialsite."
    assert seen[f"/statuses/{world.status}/"].startswith("@bob on socialsite: hello @ada")
    assert seen["/notifications/"].startswith("Notifications on socialsite")


def test_static_files_are_served_compressed_under_hashed_names_for_a_year(world):
    sizes: dict[str, int] = {}
    for client, path in pages(world):
        for asset in head_of(client, path).assets:
            assert re.search(r"\.[0-9a-f]{12}\.(css|js)$", asset), asset
            if asset in sizes:
                continue
            response = client.get(asset, HTTP_ACCEPT_ENCODING="gzip, br")
            assert response.status_code == 200, asset
            assert response["Content-Encoding"] == "gzip", asset
            max_age = re.search(r"max-age=(\d+)", response["Cache-Control"])
            assert max_age and int(max_age[1]) >= YEAR, (asset, response["Cache-Control"])
            body = b"".join(response.streaming_content)
            assert gzip.decompress(body), asset
            sizes[asset] = len(body)
    assert any(asset.startswith("/static/css/site.") for asset in sizes)


def test_a_pages_css_and_js_stay_under_60_kb_compressed(world):
    """Each page's stylesheets and scripts, as sent (gzip), together."""
    sizes: dict[str, int] = {}
    heaviest = (0, "")
    for client, path in pages(world):
        total = 0
        for asset in set(head_of(client, path).assets):
            if asset not in sizes:
                response = client.get(asset, HTTP_ACCEPT_ENCODING="gzip")
                sizes[asset] = len(b"".join(response.streaming_content))
            total += sizes[asset]
        heaviest = max(heaviest, (total, path))
    assert heaviest[0] < BUDGET, f"{heaviest[1]}: {heaviest[0]} bytes of CSS + JS, gzipped"
    # Every file any page links, together, too: a visitor's browsing loads them all.
    assert sum(sizes.values()) < BUDGET, sizes
