"""The site's VAPID key (RFC 8292), which signs every Web Push message and which apps
subscribe with: VAPID_PRIVATE_KEY, else made once and kept in var/ as the secret key is."""

import base64
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid, Vapid01

from socialsite.deploy import write_private_once


def _key_path() -> Path:
    return Path(settings.VAR_DIR) / "vapid_private_key.pem"


@cache
def vapid() -> Vapid:
    """The site's VAPID key: VAPID_PRIVATE_KEY, else the one made on first use and kept in
    var/ (made once: a second process reads the first's)."""
    if settings.VAPID_PRIVATE_KEY:
        text = settings.VAPID_PRIVATE_KEY.strip()
        if text.startswith("-----BEGIN"):
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    path = _key_path()
    if not path.exists():
        made = Vapid()
        made.generate_keys()
        write_private_once(path, made.private_pem())
    return Vapid.from_file(str(path))


def vapid_signer(*, standard: bool) -> Vapid01:
    """The VAPID key signing a message: RFC 8292's headers (Authorization: vapid t=, k=)
    for a standard subscription, else the draft's (WebPush <JWT> and Crypto-Key's
    p256ecdsa=), which legacy (aesgcm) subscribers read."""
    return vapid() if standard else Vapid01(private_key=vapid().private_key)


def vapid_public_key() -> str:
    """The VAPID public key as apps take it (applicationServerKey): the uncompressed
    point, base64url without padding."""
    raw = vapid().public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
