"""Redis names for the streaming API.

A stream key's records carry its owner's hash tag {uid}, the slot of the owner's
profile, so opening a stream (check the key, the owner's suspension and the
key's open connections) is one atomic script in one cluster slot. A client address's
streams are in that address's own slot: taking a place there is a step of its own."""

# Every open stream of every server process: connection id -> expiry time.
# Only counted (stream_stats), never part of an atomic step with per-user keys.
OPEN_STREAMS = "streaming:clients"


def stream_keys_key(uid: int) -> str:
    """The user's stream key ids, scored by creation time."""
    return f"stream_keys:{{{uid}}}"


def stream_key_key(uid: int, key_id: str) -> str:
    """One stream key: digest, name, created, last_used."""
    return f"stream_key:{{{uid}}}:{key_id}"


def stream_key_connections_key(uid: int, key_id: str) -> str:
    """The streams open on one key: connection id -> expiry time."""
    return f"stream_key_connections:{{{uid}}}:{key_id}"


def stream_ip_connections_key(ip: str) -> str:
    """The streams open from one client address (IPv4 or IPv6): connection id -> expiry time."""
    return f"stream_ip_connections:{{{ip}}}"
