"""The docs lead somewhere: every relative link in README.md and docs/*.md reaches a
file (and a heading, for a #anchor), and every repository path a page names exists."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# Folders the running site makes (never in the repository): a page may name them.
MADE_AT_RUN_TIME = ("var/", ".venv/")
# The endings that make a word a path to check: a module, a script, a page, a template,
# a browser script, or a folder (a trailing slash).
CHECKED_ENDINGS = (".py", ".lua", ".md", ".html", ".js", "/")

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
# A word of path characters with at least one slash, not part of a route or a URL
# (those start with a slash, or go on with a parameter: `tag/:tag`, `u/<login>/`).
PATH = re.compile(r"(?<![\w/.:~@{<-])((?:\.{0,2}[\w-][\w.-]*/)+(?:[\w-][\w.-]*)?)(?![\w:<{*])")
FENCE = re.compile(r"^(```|~~~)")


def _headings(text: str) -> list[str]:
    """The headings of a Markdown page, outside code blocks."""
    headings, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (found := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            headings.append(found.group(1))
    return headings


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped,
    spaces as hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    found = set()
    for heading in _headings(text):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def _links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(page.read_text())
        if not URL.match(target) and not target.startswith("mailto:")
    ]


def _link_problem(page: Path, target: str) -> str | None:
    path, _, anchor = target.partition("#")
    linked = (page.parent / path).resolve() if path else page
    if not linked.exists():
        return f"{page.relative_to(ROOT)}: {target}: no such file"
    if anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text()):
        return f"{page.relative_to(ROOT)}: {target}: no such heading"
    return None


def named_paths(text: str) -> set[str]:
    """The repository paths a page names: words with a slash that end as a module, a
    script, a page, a template, a browser script or a folder does."""
    text = URL.sub(" ", text)
    return {
        path
        for path in PATH.findall(text)
        if path.endswith(CHECKED_ENDINGS) and not path.startswith(MADE_AT_RUN_TIME)
    }


def test_the_docs_are_found():
    assert ROOT / "README.md" in PAGES
    assert len(PAGES) > 1


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_leads_to_a_file_and_heading(page):
    problems = [problem for target in _links(page) if (problem := _link_problem(page, target))]
    assert problems == []


def _folders() -> set[str]:
    """The name of every folder of the repository."""
    return {
        path.name
        for path in ROOT.rglob("*")
        if path.is_dir() and not {".venv", "var", ".git"} & set(path.relative_to(ROOT).parts)
    }


def exists(path: str, folders: set[str]) -> bool:
    """Whether a named path is in the tree: from its root, or, for a lone folder name
    (a room's `lua/`, `tests/`), anywhere in it."""
    if path.count("/") == 1 and path.endswith("/"):
        return path[:-1] in folders
    return (ROOT / path).exists()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_repository_path_a_page_names_exists(page):
    folders = _folders()
    missing = sorted(path for path in named_paths(page.read_text()) if not exists(path, folders))
    assert missing == [], f"{page.relative_to(ROOT)} names paths not in the tree"


# A file named alone, in backticks or not: `followers_among.lua`, DESIGN.md.
FILE_NAME = re.compile(r"(?<![\w/.-])([\w-]+\.(?:py|lua|md|html|js))\b")


def _file_names() -> set[str]:
    return {
        path.name
        for path in ROOT.rglob("*")
        if path.is_file() and not {".venv", "var", ".git"} & set(path.relative_to(ROOT).parts)
    }


# Names that look like files but are not: a library.
NOT_FILES = {"Mastodon.py", "masto.js"}


def named_files(text: str) -> set[str]:
    """The files a text names by their name alone (no folder)."""
    return set(FILE_NAME.findall(URL.sub(" ", text))) - NOT_FILES


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_file_a_page_names_alone_is_somewhere_in_the_tree(page):
    missing = sorted(named_files(page.read_text()) - _file_names())
    assert missing == [], f"{page.relative_to(ROOT)} names files not in the tree"


def test_no_module_cites_a_page_not_in_the_tree():
    # A docstring's "see DESIGN.md" must lead to a page the repository holds.
    modules = [
        path
        for path in ROOT.rglob("*.py")
        if not {".venv", "var"} & set(path.relative_to(ROOT).parts)
    ]
    pages = {path.name for path in ROOT.rglob("*.md") if ".venv" not in path.parts}
    cited = {
        f"{module.relative_to(ROOT)}: {name}"
        for module in modules
        if module != Path(__file__)
        for name in named_files(module.read_text())
        if name.endswith(".md") and name not in pages
    }
    assert cited == set()


def test_anchors_are_made_as_github_makes_them():
    text = "# Redis Cluster\n## `make test-cluster`\n```\n# not a heading\n```\n## Redis Cluster\n"
    assert anchors(text) == {"redis-cluster", "make-test-cluster", "redis-cluster-1"}


def test_paths_are_told_from_routes_and_urls():
    text = (
        "`timeline/graph/lua/` and timeline/feeds/home_list.py, not /statuses/<id>/, "
        "https://example.com/a/b.html, ws://HOST/api/v1/streaming, `tag/:tag` or var/media/"
    )
    assert named_paths(text) == {"timeline/graph/lua/", "timeline/feeds/home_list.py"}


def test_a_missing_file_is_caught():
    page = ROOT / "README.md"
    assert _link_problem(page, "docs/no-such-page.md") is not None
    assert _link_problem(page, "#no-such-heading") is not None
    assert not (ROOT / "timeline/feeds/no_such_module.py").exists()
    assert named_paths("see timeline/feeds/no_such_module.py") == {
        "timeline/feeds/no_such_module.py"
    }
    assert not exists("timeline/feeds/no_such_module.py", _folders())
    assert not exists("no_such_room/", _folders())
    assert exists("lua/", _folders())
    assert named_files("`no_such_script.lua`, DESIGN.md and timeline/keys.py") == {
        "no_such_script.lua",
        "DESIGN.md",
    }
