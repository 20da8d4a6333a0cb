"""What the code under test publishes on a Redis channel, for tests to assert."""

import contextlib
import json
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def published_on(conn, channel: str) -> Iterator[Callable[[], list[dict]]]:
    """Listens on `channel` from here on; gives a function that returns the JSON
    messages published since it was last called."""
    pubsub = conn.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    pubsub.get_message(timeout=1)

    def published() -> list[dict]:
        found = []
        while message := pubsub.get_message(timeout=0.2):
            found.append(json.loads(message["data"]))
        return found

    try:
        yield published
    finally:
        pubsub.close()
