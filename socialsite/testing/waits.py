"""Waiting in tests for what another process (a worker, a server) does."""

import time


def wait_for(condition, timeout: float = 20.0) -> None:
    """Returns once `condition()` holds; AssertionError if it doesn't within `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("condition not met in time")
