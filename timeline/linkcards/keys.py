"""The link cards' Redis keys: one string per URL, the card its page gave (or why it gave
none), expiring on its own."""

import hashlib

CARD_FIELD = "card"  # the status hash's field holding its card (JSON)


def link_card_key(url: str) -> str:
    """The key of `url`'s cached card: a digest, so any URL makes a short key."""
    return "link_card:" + hashlib.sha256(url.encode()).hexdigest()[:32]
