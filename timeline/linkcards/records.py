"""The link card record: what a status's card shows, as stored on the status's hash
(JSON, empty fields left out) and as pages and the client API read it."""

import json
from dataclasses import asdict, dataclass, fields
from typing import Any
from urllib.parse import urlsplit

CARD_TYPES = ("link", "photo", "video")


@dataclass(frozen=True)
class LinkCard:
    """A card: `url` is the status's link it unfolds; `image` our re-encoded copy of the
    page's picture (its URL, its pixel size and its storage name, which the status's
    deletion frees)."""

    url: str
    title: str
    description: str = ""
    type: str = "link"
    site_name: str = ""
    author_name: str = ""
    author_url: str = ""
    provider_name: str = ""
    provider_url: str = ""
    image: str = ""
    image_file: str = ""
    image_description: str = ""
    width: int = 0
    height: int = 0
    blurhash: str = ""

    @property
    def site(self) -> str:
        """Whose page it is, as the card names it: the provider, the site, or the host."""
        return self.provider_name or self.site_name or (urlsplit(self.url).hostname or "")

    def to_json(self) -> str:
        """The card as stored: compact JSON without its empty fields."""
        return json.dumps(
            {name: value for name, value in asdict(self).items() if value},
            ensure_ascii=False,
            separators=(",", ":"),
        )


_NAMES = {field.name for field in fields(LinkCard)}


def card_from_json(stored: Any) -> LinkCard | None:
    """The card stored as `stored`; None if there is none or it can't be read."""
    if not stored:
        return None
    try:
        data = json.loads(stored)
        return LinkCard(**{name: value for name, value in data.items() if name in _NAMES})
    except (ValueError, TypeError, AttributeError):
        return None
