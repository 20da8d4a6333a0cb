"""Pytest plugin: a throwaway real Redis server for the run, unless REDIS_URL is set.

With `--redis-cluster` (`make test-cluster`) the run gets a throwaway 3-master Redis
Cluster instead, and a throwaway PostgreSQL as the ORM database (or SQLite, said once
in the report header, where PostgreSQL can't be started).

It must start before pytest-django imports the settings, which read REDIS_URL and
DATABASE_URL.
"""

import os
import shutil
import sys

import pytest

from socialsite.embedded_redis import throwaway

_stops: list = []
_header: list[str] = []


def pytest_addoption(parser):
    parser.addoption(
        "--redis-cluster",
        action="store_true",
        help="run on a throwaway 3-master Redis Cluster and PostgreSQL (make test-cluster)",
    )


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # Lua scripts may touch only the keys they declare, all in one slot (socialsite.scripts).
    os.environ["REDIS_CHECK_SCRIPT_KEYS"] = "1"
    # The suite reads as a visitor from one address far more often than a person does;
    # test_rate_limits proves the default, with a daphne of its own.
    os.environ.setdefault("RATE_LIMIT_ANONYMOUS_READS", "1000000/60")
    try:
        if early_config.known_args_namespace.redis_cluster:
            _start_cluster_and_postgres()
        elif not os.environ.get("REDIS_URL"):
            server = throwaway()
            _stops.append(lambda: shutil.rmtree(server.data_dir, ignore_errors=True))
            _stops.append(server.stop)
            os.environ["REDIS_URL"] = server.start()
            # Subprocesses (daphne, workers) must share the test database file.
            os.environ.setdefault("SOCIALSITE_VAR_DIR", str(server.data_dir))
        return (yield)
    except BaseException:
        # pytest_unconfigure never runs if Django fails to set up: stop the servers here.
        _stop_servers()
        raise


def _start_cluster_and_postgres() -> None:
    from socialsite.testing.cluster import ClusterServers
    from socialsite.testing.postgres import throwaway_postgres

    cluster = ClusterServers(masters=3)
    _stops.append(cluster.stop)
    os.environ["REDIS_URL"] = cluster.start()
    os.environ.setdefault("SOCIALSITE_VAR_DIR", str(cluster.data_dir))
    _header.append(f"redis: a cluster of 3 masters, {os.environ['REDIS_URL']}")
    if os.environ.get("DATABASE_URL"):
        _header.append("database: DATABASE_URL, as given")
        return
    postgres, why_not = throwaway_postgres()
    if postgres is None:
        message = f"database: SQLite, not PostgreSQL: {why_not}"
        sys.stderr.write(f"{message}\n")
    else:
        _stops.append(postgres.stop)
        os.environ["DATABASE_URL"] = postgres.url
        message = f"database: PostgreSQL, {postgres.url}"
    _header.append(message)


def pytest_report_header(config):
    return _header


def pytest_unconfigure(config):
    _stop_servers()


def _stop_servers() -> None:
    while _stops:
        _stops.pop()()
