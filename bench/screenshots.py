"""`python -m bench.screenshots [--out DIR] [--scheme light|dark]` (`make screenshots`):
every main page of a throwaway site (bench.audit_site) in Debian's Chromium at 390x844
(a phone) and 1280x800 (a laptop), whole pages, as DIR/<page>-<width>.png, for a
reviewer to look at. The default DIR is var/screenshots/."""

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import sync_playwright

from socialsite.testing.browser import launch_chromium

ROOT = Path(__file__).resolve().parent.parent
SIZES = ((390, 844), (1280, 800))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.screenshots", description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "screenshots")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    from .audit_site import served_world

    with served_world() as (base, world, cookie), sync_playwright() as playwright:
        from socialsite.testing.world import main_pages

        name, _, value = cookie.partition("=")
        session = {"name": name, "value": value, "domain": urlsplit(base).hostname, "path": "/"}
        browser = launch_chromium(playwright)
        for width, height in SIZES:
            for logged_in in (False, True):
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    color_scheme=args.scheme,
                    is_mobile=width < 700,
                    has_touch=width < 700,
                )
                if logged_in:
                    context.add_cookies([session])
                page = context.new_page()
                for page_name, path, for_member in main_pages(world):
                    if for_member != logged_in:
                        continue
                    page.goto(f"{base}{path}")
                    page.wait_for_load_state("load")
                    suffix = "" if args.scheme == "light" else "-dark"
                    shot = args.out / f"{page_name}-{width}{suffix}.png"
                    page.screenshot(path=shot, full_page=True)
                    print(shot, flush=True)
                context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
