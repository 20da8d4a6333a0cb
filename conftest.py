"""Fixtures shared by every app's tests: a clean real Redis for each test, and a
real daphne server for tests that need HTTP or WebSockets end to end."""

import os
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from socialsite.redis import get_redis

# CI machines are small and shared: browser assertions wait longer than Playwright's 5 s
# before they count as failures (a passing check returns as soon as it holds).
expect.set_options(timeout=20_000)


@pytest.fixture(autouse=True)
def redis_conn():
    """The project's Redis, emptied before each test (a throwaway server, see the plugin)."""
    conn = get_redis()
    conn.flushdb()
    yield conn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def daphne_server(django_db_setup, django_db_blocker):
    """A daphne process serving the project on 127.0.0.1; yields its base URL.

    It shares this run's Redis and test database, so tests using it need
    `transactional_db` (data must be committed for the server to see it)."""
    port = free_port()
    env = {
        **os.environ,
        "SQLITE_PATH": str(settings.DATABASES["default"]["NAME"]),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
    }
    log_path = settings.VAR_DIR / f"daphne-{port}.log"
    log = open(log_path, "w")  # noqa: SIM115  (open for the server's whole life)
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "socialsite.asgi:application"],
        cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(log_path.read_text()[-2000:]) from None
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)
    log.close()


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
