"""check_display_text refuses invisible and reordering characters, and keeps the rest."""

import re

import pytest

from socialsite.text import check_display_text


@pytest.mark.parametrize(
    "text", ["Alice", "Zoë Ōtsuka", "李小龍", "مرحبا", "🙂 hi", "", "tab-less"]
)
def test_ordinary_text_comes_back_unchanged(text):
    assert check_display_text(text) == text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a\x00b", "a control character (U+0000)"),
        ("a\tb", "a control character (U+0009)"),
        ("a\nb", "a control character (U+000A)"),
        ("a\x7fb", "a control character (U+007F)"),
        ("a\x85b", "a control character (U+0085)"),
        ("a\u202ab", "a bidi override (U+202A)"),
        ("a\u202eb", "a bidi override (U+202E)"),
        ("a\u2066b", "a bidi isolate (U+2066)"),
        ("a\u2069b", "a bidi isolate (U+2069)"),
        ("a\u200bb", "a zero-width character (U+200B)"),
        ("a\u200db", "a zero-width character (U+200D)"),
        ("a\u2060b", "a zero-width character (U+2060)"),
        ("\ufeffab", "a zero-width character (U+FEFF)"),
        ("a\u00adb", "a format character (U+00AD)"),
        ("a\u200eb", "a format character (U+200E)"),
    ],
)
def test_refused_characters_are_named_with_their_position(text, kind):
    with pytest.raises(ValueError, match=r"^Character \d+ is " + re.escape(kind)):
        check_display_text(text)


def test_multiline_text_may_have_newlines_and_tabs_but_nothing_else_invisible():
    assert check_display_text("one\n\ttwo", multiline=True) == "one\n\ttwo"
    with pytest.raises(ValueError, match=r"U\+0009"):
        check_display_text("one\ttwo")
    with pytest.raises(ValueError, match=r"U\+000D"):
        check_display_text("one\r\ntwo", multiline=True)
    with pytest.raises(ValueError, match=r"U\+202E"):
        check_display_text("one\n\u202etwo", multiline=True)
