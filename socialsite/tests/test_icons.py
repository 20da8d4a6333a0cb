"""The icon sprite and its helper (socialsite/icons.py)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines

from socialsite.icons import ICONS, icon

SPRITE = Path(settings.BASE_DIR) / "static" / "img" / "icons.svg"


def render(source: str) -> str:
    return engines["jinja2"].from_string(source).render({})


def test_an_icon_uses_the_sprite_and_is_hidden_from_screen_readers():
    html = render('{{ icon("heart") }}')
    assert 'aria-hidden="true"' in html
    assert re.search(r'<use href="/static/img/icons[^"]*\.svg#heart"/>', html)


def test_an_icon_with_a_label_says_it_to_screen_readers_only():
    html = render('{{ icon("trash-2", label="Delete <it>") }}')
    assert '<span class="visually-hidden">Delete &lt;it&gt;</span>' in html


def test_an_icon_not_in_the_sprite_is_an_error():
    with pytest.raises(ValueError, match="No icon"):
        icon("no-such-icon")


def test_the_sprite_holds_exactly_the_icons_named_with_the_licence_beside_it():
    sprite = SPRITE.read_text()
    assert re.findall(r'<symbol id="([^"]+)"', sprite) == list(ICONS)
    assert "ISC License" in (SPRITE.parent / "LICENSE-lucide.txt").read_text()


def test_every_icon_a_template_names_is_in_the_sprite():
    used = set()
    for template in (Path(settings.BASE_DIR) / "jinja2").rglob("*.html"):
        used |= set(re.findall(r"""icon\(\s*["']([a-z0-9-]+)["']""", template.read_text()))
    assert used <= set(ICONS), used - set(ICONS)
