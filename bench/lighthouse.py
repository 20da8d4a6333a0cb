"""`python -m bench.lighthouse [--page NAME ...] [--out DIR]`: Lighthouse (from npm,
package-lock.json; `npm ci` installs it) in Debian's headless Chromium with mobile
emulation, on the main pages of a throwaway site (bench.audit_site): prints the four
scores of each page, then every audit that lost a point, with the elements it names.
Not a timing the CI holds anyone to: performance varies with the machine's load
(`--runs 5` shows each page's median run)."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from socialsite.testing.browser import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
PAGES = ("welcome", "global", "home", "profile", "status", "notifications", "search")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def run_lighthouse(url: str, cookie: str | None) -> dict:
    """Lighthouse's report (its JSON) on `url`, with mobile emulation (its default)."""
    command = [
        str(LIGHTHOUSE),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={' '.join(['--headless=new', *CHROMIUM_ARGS])}",
    ]
    if cookie:
        command.append(f"--extra-headers={json.dumps({'Cookie': cookie})}")
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def scores(report: dict) -> list[int]:
    return [round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES]


def lost_points(report: dict) -> list[str]:
    """Each weighed audit below a full score: category, audit id, title, and the
    elements (or URLs) it names."""
    lines = []
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if not ref["weight"] or audit["score"] is None or audit["score"] >= 1:
                continue
            items = (audit.get("details") or {}).get("items") or []
            named = [
                (item.get("node") or {}).get("selector") or item.get("url") or ""
                for item in items[:5]
            ]
            where = "; ".join(filter(None, named))
            lines.append(f"  {category}: {ref['id']} ({audit['title']}) {where}".rstrip())
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lighthouse", description=__doc__)
    parser.add_argument("--page", nargs="+", choices=PAGES, default=PAGES)
    parser.add_argument("--out", type=Path, help="also keep each page's JSON report here")
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        help="runs a page: the one with the median performance score is shown (3 or 5 on a"
        " busy machine, whose load costs performance points)",
    )
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        print("Lighthouse is missing: run `npm ci` at the project's root", file=sys.stderr)
        return 2
    from .audit_site import served_world

    with served_world() as (base, world, cookie):
        from socialsite.testing.world import main_pages

        chosen = [page for page in main_pages(world) if page[0] in args.page]
        print(f"{'page':<15}" + "".join(f"{c:>16}" for c in CATEGORIES), flush=True)
        details = []
        for name, path, logged_in in chosen:
            runs = [
                run_lighthouse(f"{base}{path}", cookie if logged_in else None)
                for _ in range(max(1, args.runs))
            ]
            report = sorted(runs, key=lambda run: scores(run)[0])[len(runs) // 2]
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                (args.out / f"{name}.json").write_text(json.dumps(report))
            print(f"{name:<15}" + "".join(f"{s:>16}" for s in scores(report)), flush=True)
            details += [f"{name} ({path}):", *lost_points(report)]
    print("\nLost points:" if any(line.startswith("  ") for line in details) else "\nNone lost.")
    print("\n".join(line for line in details if line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
