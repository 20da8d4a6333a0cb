"""Custom emojis (accounts.emojis) as the client API shows them: Mastodon's CustomEmoji,
listed by /api/v1/custom_emojis and named in a Status's or an Account's `emojis`."""

from accounts import emojis


def emoji_entity(site: str, found: dict) -> dict:
    address = emojis.emoji_url(found)
    picture = address if address.startswith("http") else site + address
    return {
        "shortcode": found["shortcode"],
        "url": picture,
        # Stored redrawn as a still picture: both are the same.
        "static_url": picture,
        "visible_in_picker": True,
        "category": found.get("category") or None,
    }


def emojis_in(site: str, *texts: str) -> list[dict]:
    """The CustomEmoji entities of the emojis `texts` use."""
    return [emoji_entity(site, found) for found in emojis.used_in(*texts)]
