import itertools
import json

import pytest

from accounts.services import create_user
from socialsite.keys import STATUS_CHANNEL

_logins = itertools.count(1)


@pytest.fixture
def make_user():
    """Creates Redis profiles with fresh logins; returns the uid."""

    def make(login: str | None = None) -> int:
        return create_user(login or f"user{next(_logins)}", "Test User")

    return make


@pytest.fixture
def followers_of(make_user):
    """Creates `n` users who all follow `uid`; returns their uids in follow order."""
    from timeline.services import follow_user

    def make(uid: int, n: int) -> list[int]:
        uids = [make_user() for _ in range(n)]
        for follower in uids:
            follow_user(follower, uid)
        return uids

    return make


@pytest.fixture
def alice(member):
    return member("alice")


@pytest.fixture
def bob(member):
    return member("bob")


@pytest.fixture
def events(redis_conn):
    """Collects what is published on the status channel from here on."""
    pubsub = redis_conn.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(STATUS_CHANNEL)
    pubsub.get_message(timeout=1)

    def published() -> list[dict]:
        found = []
        while message := pubsub.get_message(timeout=0.2):
            found.append(json.loads(message["data"]))
        return found

    yield published
    pubsub.close()
