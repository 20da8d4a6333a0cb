"""Link cards' reads: a status's card as pages and the client API show it. The card
rides the status's hash, so reading it costs no round trip."""

from ..statuses.records import Status
from .keys import CARD_FIELD
from .records import LinkCard, card_from_json
from .services import first_link


def card_of(status: Status) -> LinkCard | None:
    """`status`'s card, if it has one for the link it now holds: an edit that changed the
    link hides the old card at once, before its job takes it away."""
    stored = status.get(CARD_FIELD)
    if not stored:
        return None
    card = card_from_json(stored)
    if card is None or card.url != first_link(status):
        return None
    return card


def card_entity(status: Status) -> dict[str, object] | None:
    """`status`'s card as the client API's PreviewCard (Mastodon's fields), or None."""
    card = card_of(status)
    if card is None:
        return None
    return {
        "url": card.url,
        "title": card.title,
        "description": card.description,
        "type": card.type,
        "author_name": card.author_name,
        "author_url": card.author_url,
        "provider_name": card.site,
        "provider_url": card.provider_url,
        # Remote markup (an oEmbed's iframe) is never kept: nothing to embed.
        "html": "",
        "width": card.width,
        "height": card.height,
        "image": card.image or None,
        "image_description": card.image_description,
        "embed_url": "",
        "blurhash": card.blurhash or None,
        "language": None,
        "published_at": None,
        "authors": [],
    }
