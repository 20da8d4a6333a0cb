"""Custom emojis: pictures the admins upload under a shortcode, which `:shortcode:` in a
status, a display name or a bio shows (`emojify` on the pages; the client API lists
them and names those a text uses in its `emojis`).

An upload (PNG, GIF or WebP) is checked from its header, then redrawn as a square WebP
off the request's slot (socialsite.pictures, socialsite.offslot: nothing of it is kept
as sent; an animated GIF keeps its first frame) and stored through Django's storage
API as avatars are. The site's emojis are one hash (accounts.keys.CUSTOM_EMOJIS):
shortcode -> the emoji as JSON. They are read only for a text that has something like
a `:shortcode:` in it, and each process keeps its copy for
settings.CUSTOM_EMOJIS_KEPT_SECONDS (a page renders many texts): a change made in this
process is seen at once, one made in another within that time."""

import json
import re
import secrets
import time
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from markupsafe import Markup, escape

from socialsite import offslot, pictures
from socialsite.redis import get_redis

from .keys import CUSTOM_EMOJIS

SHORTCODE = re.compile(r"[A-Za-z0-9_]{2,32}")
IN_TEXT = re.compile(r":([A-Za-z0-9_]{2,32}):")
EMOJI_MAX_BYTES = 256 * 1024
EMOJI_MAX_PIXELS = 1024 * 1024
FORMATS = frozenset({"PNG", "GIF", "WEBP"})
SIDE = 128  # stored at; shown at the text's height
CATEGORY_MAX = 50

Emoji = dict[str, Any]
_kept: tuple[float, dict[str, Emoji]] | None = None


class BadEmoji(ValueError):
    """An emoji refused, saying why."""


def emoji_name(shortcode: str, token: str) -> str:
    return f"emojis/{shortcode}-{token}.webp"


def emoji_url(found: Emoji) -> str:
    return default_storage.url(emoji_name(found["shortcode"], found["token"]))


def check_shortcode(shortcode: object) -> str:
    text = str(shortcode or "").strip().strip(":")
    if not SHORTCODE.fullmatch(text):
        raise BadEmoji("A shortcode is 2 to 32 letters, digits or underscores.")
    return text


def drawn(data: bytes) -> bytes:
    """The picture in `data` as an emoji's WebP; BadEmoji if it isn't an acceptable one."""
    budget = pictures.Budget(EMOJI_MAX_BYTES, EMOJI_MAX_PIXELS, FORMATS)
    try:
        pictures.read_header(data, budget)
        return offslot.run(pictures.squares, data, budget, (SIDE,))[SIDE]
    except pictures.BadPicture as error:
        raise BadEmoji(str(error)) from None
    except offslot.Overrun:
        raise BadEmoji("That picture takes too long to read.") from None


def add_emoji(shortcode: object, data: bytes, *, category: str = "") -> Emoji:
    """Stores an emoji under `shortcode` (replacing one of that shortcode); BadEmoji
    (nothing stored) for a bad shortcode, category or picture."""
    code = check_shortcode(shortcode)
    category = str(category or "").strip()
    if len(category) > CATEGORY_MAX:
        raise BadEmoji(f"A category is at most {CATEGORY_MAX} characters.")
    webp = drawn(data)
    token = secrets.token_hex(8)
    default_storage.save(emoji_name(code, token), ContentFile(webp))
    found = {"shortcode": code, "token": token, "category": category, "added": time.time()}
    before = get_redis().hget(CUSTOM_EMOJIS, code)
    get_redis().hset(CUSTOM_EMOJIS, code, json.dumps(found))
    if before:
        default_storage.delete(emoji_name(code, json.loads(before)["token"]))
    forget()
    return found


def delete_emoji(shortcode: str) -> bool:
    """Deletes an emoji and its file: True; False if there was none."""
    before = get_redis().hget(CUSTOM_EMOJIS, str(shortcode))
    if before is None:
        return False
    get_redis().hdel(CUSTOM_EMOJIS, str(shortcode))
    default_storage.delete(emoji_name(str(shortcode), json.loads(before)["token"]))
    forget()
    return True


def forget() -> None:
    global _kept
    _kept = None


def all_emojis() -> dict[str, Emoji]:
    """The site's emojis by shortcode (this process's copy, read afresh when old)."""
    global _kept
    now = time.monotonic()
    if _kept is None or now - _kept[0] >= settings.CUSTOM_EMOJIS_KEPT_SECONDS:
        raw = get_redis().hgetall(CUSTOM_EMOJIS)
        _kept = (now, {code: json.loads(value) for code, value in raw.items()})
    return _kept[1]


def used_in(*texts: str) -> list[Emoji]:
    """The emojis `texts` name (`:shortcode:`), each once, in order of use."""
    if not any(IN_TEXT.search(text or "") for text in texts):
        return []
    known = all_emojis()
    found: dict[str, Emoji] = {}
    for text in texts:
        for code in IN_TEXT.findall(text or ""):
            if code in known:
                found.setdefault(code, known[code])
    return list(found.values())


def emojify(text: object) -> Markup:
    """`text` (HTML, or plain text, escaped here) with each known `:shortcode:` as its
    picture: the pages' filter for statuses, names and bios."""
    html = text if isinstance(text, Markup) else escape(str(text if text is not None else ""))
    if not IN_TEXT.search(html):
        return Markup(html)
    known = all_emojis()

    def picture(match: re.Match) -> str:
        found = known.get(match[1])
        if found is None:
            return match[0]
        return str(
            Markup(
                '<img class="emoji" src="{}" alt=":{}:" title=":{}:" width="20" height="20">'
            ).format(emoji_url(found), found["shortcode"], found["shortcode"])
        )

    return Markup(IN_TEXT.sub(picture, str(html)))
