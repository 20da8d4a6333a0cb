"""Pytest plugin: a throwaway real Redis server for the run, unless REDIS_URL is set.

It must start before pytest-django imports the settings, which read REDIS_URL.
"""

import os
import shutil

import pytest

from socialsite.embedded_redis import throwaway

_server = None


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config, parser, args):
    global _server
    if not os.environ.get("REDIS_URL"):
        _server = throwaway()
        os.environ["REDIS_URL"] = _server.start()
        # Subprocesses (daphne, workers) must share the test database file.
        os.environ.setdefault("SOCIALSITE_VAR_DIR", str(_server.data_dir))
    try:
        return (yield)
    except BaseException:
        # pytest_unconfigure never runs if Django fails to set up: stop the server here.
        _stop_server()
        raise


def pytest_unconfigure(config):
    _stop_server()


def _stop_server() -> None:
    global _server
    if _server is not None:
        _server.stop()
        shutil.rmtree(_server.data_dir, ignore_errors=True)
        _server = None
