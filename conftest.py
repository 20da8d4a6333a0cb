"""Fixtures shared by every app's tests: a clean real Redis for each test, a real daphne
server for tests that need HTTP or WebSockets end to end, and a count of round trips."""

import functools
import itertools
import os
import threading

import pytest
from django.conf import settings
from django.test import override_settings
from playwright.sync_api import expect, sync_playwright
from redis.connection import AbstractConnection

from accounts import logins
from accounts.authors import forget_all
from accounts.services import create_user
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import NodeShare, get_redis
from socialsite.servers import throwaway_daphne
from socialsite.staticfiles import collect
from socialsite.testing.browser import launch_chromium, sign_up
from socialsite.testing.databases import subprocess_database_env
from socialsite.testing.published import published_on
from timeline.discovery import trends

# CI machines are small and shared: browser assertions wait longer than Playwright's 5 s
# before they count as failures (a passing check returns as soon as it holds).
expect.set_options(timeout=20_000)


def pytest_sessionstart(session):
    """The static files under their hashed names, as the pages link them: collectstatic
    once a checkout (again when static/ changed; socialsite.staticfiles). Before the test
    modules are collected: one imports the ASGI app, whose WhiteNoise reads the manifest
    once, when the app is made (a worker that read none would fail every page)."""
    collect()


@pytest.fixture(autouse=True)
def redis_conn():
    """The project's Redis, emptied before each test (a throwaway server or cluster, see
    the plugin; on a cluster FLUSHDB goes to every primary)."""
    conn = get_redis()
    conn.flushdb()
    forget_all()
    logins.forget_all()
    trends.forget()
    yield conn


@pytest.fixture(scope="session")
def daphne_server(django_db_setup, django_db_blocker):
    """A daphne process serving the project on 127.0.0.1; yields its base URL.

    It shares this run's Redis and test database, so tests using it need
    `transactional_db` (data must be committed for the server to see it)."""
    env = {
        **os.environ,
        **subprocess_database_env(),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
        # A client of the slow-client tests reads what piled up for it (megabytes, through
        # a 4 KB receive window) only once it is dropped; on a loaded run that can take
        # longer than the 10 s a real client gets before its connection is cut, taking
        # the last line, which says why, with it.
        "STREAM_DROPPED_GRACE_SECONDS": "120",
        # Pictures are redrawn one at a time, and waiting counts against OFF_SLOT_SECONDS:
        # with another worker's tests on the same cores, a few uploads queued behind the
        # costliest picture may wait past the 30 s a real server gives them
        # (socialsite/tests/test_offslot.py holds the limit itself, in process).
        "OFF_SLOT_SECONDS": "120",
        # Web Push (apipush): subscriptions to the push service a test runs on loopback.
        "PUSH_ALLOW_HTTP": "1",
        # Trends read through this server are worked out afresh: the JS clients' start-up
        # reads them too, and a minute's copy of none would hide a test's trend.
        "TRENDS_KEPT_SECONDS": "0",
    }
    # The slow-client tests stall a socket for as long as a loaded run takes to publish
    # thousands of events; daphne's pings (unanswered behind what it doesn't read) must
    # not drop it before the server does, with its reason.
    with (
        override_settings(WEBSOCKET_PING_TIMEOUT=600),
        throwaway_daphne(settings.VAR_DIR, env) as (base, _),
    ):
        yield base


class Member:
    """A user made for a test: `uid` and `login` (their Redis profile, made at once), and
    `user` and `client`, their Django user and a test client logged in as them, made on
    first use (hashing no password: that costs more than the rest of a test)."""

    def __init__(self, login: str) -> None:
        self.login = login
        self.uid = create_user(login, login.title())
        assert self.uid is not None, f"the login {login!r} is taken"
        self._client = None

    @functools.cached_property
    def user(self):
        from django.contrib.auth.models import User

        return User.objects.create_user(username=self.login, first_name=self.login.title())

    @property
    def client(self):
        from django.test import Client

        if self._client is None:
            self._client = Client()
            self._client.force_login(self.user)
        return self._client

    @property
    def cookie(self) -> str:
        """The Cookie header of their session, for clients of the live server."""
        return f"sessionid={self.client.cookies['sessionid'].value}"


@pytest.fixture
def browser():
    """A headless Chromium for a browser test, closed after it."""
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def signed_up_page(browser, daphne_server):
    """`signed_up_page("alice")` signs alice up in a browser context of her own (her own
    cookies) and returns the page, on her home page."""

    def open_page(login: str):
        page = browser.new_context().new_page()
        sign_up(page, daphne_server, login)
        return page

    return open_page


@pytest.fixture
def make_user(db):
    """The tests' one user factory: `make_user("alice")`, or `make_user()` for a fresh
    login, makes a Member."""
    logins = itertools.count(1)

    def make(login: str | None = None) -> Member:
        return Member(login or f"user{next(logins)}")

    return make


@pytest.fixture
def alice(make_user) -> Member:
    return make_user("alice")


@pytest.fixture
def bob(make_user) -> Member:
    return make_user("bob")


@pytest.fixture
def followers_of(make_user):
    """Makes `n` users who all follow `uid`; returns their uids in follow order."""
    from timeline.services import follow_user

    def make(uid: int, n: int) -> list[int]:
        uids = [make_user().uid for _ in range(n)]
        for follower in uids:
            follow_user(follower, uid)
        return uids

    return make


@pytest.fixture
def events(redis_conn):
    """Collects what is published on the status channel from here on."""
    with published_on(redis_conn, STATUS_CHANNEL) as published:
        yield published


@pytest.fixture
def round_trips(monkeypatch):
    """Counts round trips: a send that follows a reply (or comes first), on any
    connection. A cluster's pipelines write to every node they need before reading any
    reply, so commands to three nodes at once are one round trip, as one server's are.

    Only the thread running the action counts (the status cache's listener thread reads
    the changes a post publishes meanwhile), and a new connection's handshake is none of
    the action's (whether a pooled connection was free depends on the tests before)."""
    state = {"count": 0, "answered": True, "thread": None}
    send = AbstractConnection.send_packed_command
    read = AbstractConnection.read_response
    read_share = NodeShare.read
    on_connect = AbstractConnection.on_connect_check_health

    def counting(self, command, check_health=True):
        if state["answered"] and threading.get_ident() == state["thread"]:
            state["count"] += 1
            state["answered"] = False
        return send(self, command, check_health)

    def answered(read):
        def reading(self, *args, **kwargs):
            if threading.get_ident() == state["thread"]:
                state["answered"] = True
            return read(self, *args, **kwargs)

        return reading

    def connecting(self, *args, **kwargs):
        if threading.get_ident() != state["thread"]:
            # Another thread's connection (the status cache's listener subscribing): its
            # restore of the count would undo a round trip the action made meanwhile.
            return on_connect(self, *args, **kwargs)
        before = state["count"], state["answered"]
        on_connect(self, *args, **kwargs)
        state["count"], state["answered"] = before

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    monkeypatch.setattr(AbstractConnection, "read_response", answered(read))
    monkeypatch.setattr(AbstractConnection, "on_connect_check_health", connecting)
    monkeypatch.setattr(NodeShare, "read", answered(read_share))

    def count(action) -> int:
        state["count"], state["answered"] = 0, True
        state["thread"] = threading.get_ident()
        action()
        return state["count"]

    return count
