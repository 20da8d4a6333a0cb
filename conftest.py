"""Fixtures shared by every app's tests: a clean real Redis for each test."""

import pytest

from socialsite.redis import get_redis


@pytest.fixture(autouse=True)
def redis_conn():
    """The project's Redis, emptied before each test (a throwaway server, see the plugin)."""
    conn = get_redis()
    conn.flushdb()
    yield conn
