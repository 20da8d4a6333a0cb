"""Settings of the outbound fetcher (socialsite.fetch) and of link preview cards
(timeline.linkcards), imported by socialsite.settings. Each may be set in the
environment under the same name."""

import os


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in {"1", "true", "yes", "on"}


def _number(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


# Tests only: lets the fetcher reach private, loopback and link-local addresses (the
# tests' own HTTP servers listen on 127.0.0.1). Never on a public site: it turns every
# link anyone posts into a request into your own network.
SOCIALSITE_FETCH_ALLOW_PRIVATE = _flag("SOCIALSITE_FETCH_ALLOW_PRIVATE", False)
# Seconds to connect; seconds between two reads; seconds for a whole response.
FETCH_CONNECT_TIMEOUT = _number("FETCH_CONNECT_TIMEOUT", 5)
FETCH_READ_TIMEOUT = _number("FETCH_READ_TIMEOUT", 10)
FETCH_TOTAL_TIMEOUT = _number("FETCH_TOTAL_TIMEOUT", 20)
# At most this many bytes of a body are read (decoded), and this many redirects followed.
FETCH_MAX_BYTES = int(_number("FETCH_MAX_BYTES", 1024 * 1024))
FETCH_MAX_REDIRECTS = int(_number("FETCH_MAX_REDIRECTS", 3))

# Link preview cards: a page's card is kept this long per URL; a failed fetch is
# remembered for less, so a page that was down is tried again soon.
LINK_CARD_CACHE_SECONDS = int(_number("LINK_CARD_CACHE_SECONDS", 24 * 3600))
LINK_CARD_FAILURE_SECONDS = int(_number("LINK_CARD_FAILURE_SECONDS", 3600))
# A card's picture is fetched up to this size, then checked and redrawn as an upload.
LINK_CARD_IMAGE_MAX_BYTES = int(_number("LINK_CARD_IMAGE_MAX_BYTES", 2 * 1024 * 1024))
