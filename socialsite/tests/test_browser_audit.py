"""axe-core (from npm, package-lock.json) in Debian's Chromium on every page of the site
map, as a visitor and logged in, in light and in dark (`prefers-color-scheme`): no
serious or critical accessibility violation anywhere."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page

from socialsite.testing.browser import log_in
from socialsite.testing.world import LOGIN, World, make_world, member_pages, visitor_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
COUNTED = ("serious", "critical")
# axe's rules plus one of its experimental ones that Lighthouse runs: a control's
# accessible name holds its visible text (what speech input users say to press it).
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def axe_violations(page: Page, where: str) -> list[str]:
    """axe's serious and critical violations on the open page, one line each: rule,
    page, impact and the elements (their CSS paths)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Through the DevTools protocol: the pages' CSP refuses inline scripts.
        page.evaluate(AXE.read_text())
    results = page.evaluate("options => axe.run(document, options)", OPTIONS)
    return [
        f"{v['id']} on {where} ({v['impact']}): {v['help']}: "
        + json.dumps([node["target"] for node in v["nodes"]][:5])
        for v in results["violations"]
        if v["impact"] in COUNTED
    ]


def audit(page: Page, base: str, paths: list[str], who: str, scheme: str) -> list[str]:
    found = []
    for path in paths:
        page.goto(f"{base}{path}")
        page.wait_for_load_state("load")
        found += axe_violations(page, f"{path} ({who}, {scheme})")
    return found


@pytest.fixture
def world() -> World:
    """Made before the browser starts: its event loop keeps the ORM out of the test's thread."""
    return make_world()


# Some fifty pages, each loaded and audited: minutes on a loaded machine.
@pytest.mark.timeout(600)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_accessibility_violation(scheme, world, browser, daphne_server):
    assert AXE.exists(), "axe-core is missing: `npm ci` (make test does)"
    page = browser.new_context(color_scheme=scheme).new_page()
    found = audit(page, daphne_server, visitor_pages(world), "visitor", scheme)
    log_in(page, daphne_server, LOGIN)
    found += audit(page, daphne_server, member_pages(world), LOGIN, scheme)
    assert found == [], "\n".join(found)
    # And the check sees one: an image without a text alternative is critical.
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=x>')")
    assert any(line.startswith("image-alt") for line in axe_violations(page, "/nowhere/"))
