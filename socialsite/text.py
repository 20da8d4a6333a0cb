"""Refusing invisible and reordering characters in text people show to others.

Names, statuses and list names are shown beside other people's text. Control
characters, bidi overrides/isolates, zero-width and other format (Cf) characters
can hide text, make one name look like another, or reverse what follows them on
the page. They are refused, not removed: removing would store something other
than what the person typed, and a clear error lets them fix it.
"""

import functools
import re
import unicodedata

# Named for the error message; every other Cf character is refused as "a format character".
_NAMED = {
    **{chr(c): "a bidi override" for c in range(0x202A, 0x202F)},
    **{chr(c): "a bidi isolate" for c in range(0x2066, 0x206A)},
    **{c: "a zero-width character" for c in "\u200b\u200c\u200d\u2060\ufeff"},
}


def check_display_text(text: str, *, multiline: bool = False) -> str:
    """Returns `text` unchanged, or raises ValueError naming the first character refused.

    Refused: control characters (Cc; newline and tab allowed when `multiline`), bidi
    overrides and isolates (U+202A-U+202E, U+2066-U+2069), zero-width characters
    (U+200B-U+200D, U+2060, U+FEFF) and every other format character (Cf), such as
    U+00AD SOFT HYPHEN or U+2062 INVISIBLE TIMES. Emoji joiner sequences need U+200D,
    so they are refused too: the price of never showing an invisible character."""
    for index, char in enumerate(text):
        if multiline and char in "\n\t":
            continue
        category = unicodedata.category(char)
        if category == "Cc" or category == "Cf":
            kind = _NAMED.get(char) or (
                "a control character" if category == "Cc" else "a format character"
            )
            raise ValueError(
                f"Character {index + 1} is {kind} (U+{ord(char):04X}), which can't be shown."
            )
    return text


def with_lf(text: str) -> str:
    """`text` with its line breaks as LF: a browser sends a textarea's as CRLF, which
    would count twice and be refused as a control character (CR)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


# Punctuation around a word doesn't count: "Redis!", "#redis" and "(redis)" are "redis".
_WORD_EDGES = re.compile(r"^\W+|\W+$")


# Every track stream and every muted-words check asks for the words of the same status:
# split it once.
@functools.lru_cache(maxsize=256)
def words(text: str) -> frozenset[str]:
    """The case-folded words of `text`, without the punctuation around them: the word
    rules of the streaming API's `track` filter, muted words and status search, in one place."""
    stripped = (_WORD_EDGES.sub("", word) for word in text.casefold().split())
    return frozenset(word for word in stripped if word)


def folded(text: str) -> str:
    """`text` case-folded and without accents ("Zoë" -> "zoe"): how names are matched."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))
