"""Fixtures shared by every app's tests: a clean real Redis for each test, and a
real daphne server for tests that need HTTP or WebSockets end to end."""

import os

import pytest
from django.conf import settings
from playwright.sync_api import expect

from socialsite.redis import get_redis
from socialsite.servers import throwaway_daphne

# CI machines are small and shared: browser assertions wait longer than Playwright's 5 s
# before they count as failures (a passing check returns as soon as it holds).
expect.set_options(timeout=20_000)


@pytest.fixture(autouse=True)
def redis_conn():
    """The project's Redis, emptied before each test (a throwaway server, see the plugin)."""
    conn = get_redis()
    conn.flushdb()
    yield conn


@pytest.fixture(scope="session")
def daphne_server(django_db_setup, django_db_blocker):
    """A daphne process serving the project on 127.0.0.1; yields its base URL.

    It shares this run's Redis and test database, so tests using it need
    `transactional_db` (data must be committed for the server to see it)."""
    env = {
        **os.environ,
        "SQLITE_PATH": str(settings.DATABASES["default"]["NAME"]),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
    }
    with throwaway_daphne(settings.VAR_DIR, env) as (base, _):
        yield base


class Member:
    """A signed-up user: `login`, `uid` and a test `client` logged in as them."""

    def __init__(self, login: str) -> None:
        from django.contrib.auth.models import User
        from django.test import Client

        from accounts.services import uid_for_login

        # No password: hashing one costs more than the rest of a test.
        self.user = User.objects.create_user(username=login, first_name=login.title())
        self.login = login
        self.uid = uid_for_login(login)
        self.client = Client()
        self.client.force_login(self.user)


@pytest.fixture
def member(db):
    """Makes Members: `member("alice")` signs up alice and logs a client in as her."""
    return Member
