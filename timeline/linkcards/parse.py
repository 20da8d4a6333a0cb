"""What a fetched page says about itself: its OpenGraph (`og:*`), Twitter-card
(`twitter:*`) and plain HTML tags (`<title>`, `<meta name="description">`), and where its
oEmbed is (`<link rel="alternate" type="application/json+oembed">`). Read with the
standard library's tolerant HTML parser; only the <head>'s tags matter, so parsing stops
at <body>."""

import json
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin

# Stored lengths: what a card shows, and a status hash stays compact (storage.md).
TITLE_MAX = 200
DESCRIPTION_MAX = 300
NAME_MAX = 100
URL_MAX = 1000

OEMBED_TYPES = {"application/json+oembed", "text/json+oembed"}


class _HeadParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}
        self.title = ""
        self.oembed = ""
        self._in_title = False
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        found = {name.lower(): (value or "") for name, value in attrs}
        if tag == "meta":
            name = (found.get("property") or found.get("name") or "").strip().lower()
            # The first of each wins, as with OpenGraph's own rule for repeated tags.
            if name and "content" in found and name not in self.meta:
                self.meta[name] = found["content"]
        elif tag == "title":
            self._in_title = True
        elif tag == "link":
            rel = found.get("rel", "").lower().split()
            if "alternate" in rel and found.get("type", "").lower() in OEMBED_TYPES:
                self.oembed = self.oembed or found.get("href", "")
        elif tag == "body":
            self.done = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title and not self.done and len(self.title) < TITLE_MAX * 2:
            self.title += data


def clean(value: Any, limit: int) -> str:
    """`value` as one line of at most `limit` characters ("" if not text)."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return ""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def web_url(value: Any, base: str) -> str:
    """`value` as an absolute http(s) URL against `base`, or "" if it isn't one."""
    if not isinstance(value, str) or not value.strip():
        return ""
    absolute = urljoin(base, value.strip())
    if not absolute.startswith(("http://", "https://")) or len(absolute) > URL_MAX:
        return ""
    return absolute


def page_tags(html: str, base: str) -> dict[str, str]:
    """The card's fields a page gives (title, description, image, site_name, type,
    author_name, width, height, oembed: its oEmbed URL), from its OpenGraph tags first,
    then Twitter's, then plain HTML."""
    parser = _HeadParser()
    try:
        parser.feed(html)
        parser.close()
    except (ValueError, AssertionError):
        pass  # a page the parser gives up on keeps what it found so far
    meta = parser.meta

    def first(*names: str) -> str:
        return next((meta[name] for name in names if meta.get(name, "").strip()), "")

    og_type = first("og:type").lower()
    return {
        "title": clean(first("og:title", "twitter:title") or parser.title, TITLE_MAX),
        "description": clean(
            first("og:description", "twitter:description", "description"), DESCRIPTION_MAX
        ),
        "image": web_url(
            first(
                "og:image:secure_url",
                "og:image",
                "og:image:url",
                "twitter:image",
                "twitter:image:src",
            ),
            base,
        ),
        "image_description": clean(first("og:image:alt", "twitter:image:alt"), DESCRIPTION_MAX),
        "site_name": clean(first("og:site_name"), NAME_MAX),
        "author_name": clean(first("author", "article:author", "twitter:creator"), NAME_MAX),
        "type": "video" if og_type.startswith("video") else "link",
        "oembed": web_url(parser.oembed, base),
    }


def oembed_fields(body: str, base: str) -> dict[str, str]:
    """The card's fields an oEmbed answer (JSON) gives; {} if it isn't one. Its `html`
    (an iframe to embed) is never kept: the site serves no remote markup."""
    try:
        data = json.loads(body)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    kind = data.get("type")
    fields = {
        "title": clean(data.get("title"), TITLE_MAX),
        "author_name": clean(data.get("author_name"), NAME_MAX),
        "author_url": web_url(data.get("author_url"), base),
        "provider_name": clean(data.get("provider_name"), NAME_MAX),
        "provider_url": web_url(data.get("provider_url"), base),
        "image": web_url(data.get("url") if kind == "photo" else data.get("thumbnail_url"), base),
        "type": kind if kind in ("photo", "video") else "link",
    }
    return {name: value for name, value in fields.items() if value}
