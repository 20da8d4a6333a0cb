"""The site's icons: one SVG sprite (static/img/icons.svg, Lucide's icons, ISC licence in
static/img/LICENSE-lucide.txt) and `icon()`, the pages' global that draws one of them.

An icon is decoration: it is hidden from screen readers, and the text beside it (shown,
or `label`, read by screen readers only) says what it means. The sprite is one cached
file, so a page pays ~90 bytes an icon.

Rebuild the sprite (only ICONS, from an unpacked `npm pack lucide-static@<version>`):
    python -m socialsite.icons <package dir> > static/img/icons.svg
"""

import re
import sys
from functools import lru_cache
from pathlib import Path

from django.templatetags.static import static
from markupsafe import Markup, escape

ICONS = (
    "arrow-left", "at-sign", "ban", "bell", "bookmark", "check", "compass", "ellipsis",
    "flag", "globe", "hash", "heart", "house", "image", "list", "lock", "log-in", "log-out",
    "mail", "map-pin", "message-circle", "monitor", "moon", "pencil", "pin", "plus", "repeat-2",
    "search", "send", "settings", "sun", "trash-2", "user", "user-check", "user-minus",
    "user-plus", "user-x", "users", "volume-x", "x",
)  # fmt: skip

# On each symbol: a <use> inherits from the page, not from the sprite's root.
STROKE = (
    'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"'
    ' stroke-linejoin="round"'
)


@lru_cache(maxsize=1)
def sprite_url() -> str:
    return static("img/icons.svg")


@lru_cache(maxsize=256)
def icon(name: str, label: str = "") -> Markup:
    """The icon `name` (one of ICONS) as inline SVG using the sprite; with `label`, a
    screen-reader-only text follows it (for a button that shows no text)."""
    if name not in ICONS:
        raise ValueError(f"No icon {name!r} in the sprite (socialsite/icons.py ICONS)")
    svg = Markup('<svg class="icon" aria-hidden="true"><use href="{}#{}"/></svg>').format(
        sprite_url(), name
    )
    if label:
        svg += Markup('<span class="visually-hidden">{}</span>').format(label)
    return svg


def symbol(name: str, source: str) -> str:
    """Lucide's icons/<name>.svg as a <symbol>: its shapes, its stroke attributes."""
    body = re.search(r"<svg[^>]*>(.*)</svg>", source, re.S)
    if body is None:
        raise ValueError(f"{name}: not an SVG")
    shapes = " ".join(line.strip() for line in body.group(1).splitlines() if line.strip())
    return f'<symbol id="{escape(name)}" viewBox="0 0 24 24" {STROKE}>{shapes}</symbol>'


def build_sprite(package: Path) -> str:
    version = re.search(r'"version":\s*"([^"]+)"', (package / "package.json").read_text())
    symbols = "\n".join(symbol(n, (package / "icons" / f"{n}.svg").read_text()) for n in ICONS)
    return (
        f"<!-- lucide-static {version.group(1) if version else '?'} (ISC, LICENSE-lucide.txt):"
        " built by socialsite/icons.py -->\n"
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        f"{symbols}\n</svg>\n"
    )


if __name__ == "__main__":
    sys.stdout.write(build_sprite(Path(sys.argv[1])))
