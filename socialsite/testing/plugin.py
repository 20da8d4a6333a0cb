"""Pytest plugin: a throwaway real Redis server for the run, unless REDIS_URL is set.

With `--redis-cluster` (`make test-cluster`) the run gets a throwaway 3-master Redis
Cluster instead, and a throwaway PostgreSQL as the ORM database (or SQLite, said once
in the report header, where PostgreSQL can't be started).

On parallel workers (pytest-xdist's `-n N`, as `make test` runs) each worker is a run of
its own: its own Redis server (or 3-master cluster), its own var folder (the daphne logs,
media, SQLite's test database) and its own test database (pytest-django suffixes its name
with the worker's id). The cluster run's one PostgreSQL, started by the controller
before the workers, serves every worker, each in databases of its own.

It must start before pytest-django imports the settings, which read REDIS_URL and
DATABASE_URL.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from socialsite.embedded_redis import throwaway

_stops: list = []
_header: list[str] = []
# What the controller of parallel workers hands them (it starts no Redis of its own).
RUN_POSTGRES = "SOCIALSITE_TEST_POSTGRES"  # the run's PostgreSQL server's URL
GIVEN_VAR_DIR = "SOCIALSITE_TEST_GIVEN_VAR_DIR"  # a SOCIALSITE_VAR_DIR the user set


def pytest_addoption(parser):
    parser.addoption(
        "--redis-cluster",
        action="store_true",
        help="run on a throwaway 3-master Redis Cluster and PostgreSQL (make test-cluster)",
    )


def worker_id() -> str | None:
    """This process's pytest-xdist worker ("gw0", "gw1", ...), or None when it runs the
    tests itself (no `-n`)."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def _is_controller(early_config) -> bool:
    """Whether this process hands the tests to parallel workers (`-n N`, N > 0)."""
    return not worker_id() and bool(getattr(early_config.known_args_namespace, "numprocesses", 0))


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # Lua scripts may touch only the keys they declare, all in one slot (socialsite.scripts).
    os.environ["REDIS_CHECK_SCRIPT_KEYS"] = "1"
    # The suite reads as a visitor from one address far more often than a person does;
    # test_rate_limits proves the default, with a daphne of its own.
    os.environ.setdefault("RATE_LIMIT_ANONYMOUS_READS", "1000000/60")
    # Custom emojis (apiprefs): each process reads them afresh, so an emoji added by a
    # test is seen by the suite's daphne at once (accounts.emojis).
    os.environ.setdefault("CUSTOM_EMOJIS_KEPT_SECONDS", "0")
    cluster = early_config.known_args_namespace.redis_cluster
    try:
        if _is_controller(early_config):
            return (yield from _control(cluster))
        if worker_id() and os.environ.get(GIVEN_VAR_DIR):
            os.environ["SOCIALSITE_VAR_DIR"] = str(Path(os.environ[GIVEN_VAR_DIR]) / worker_id())
        if cluster:
            _start_cluster_and_postgres()
        elif not os.environ.get("REDIS_URL"):
            server = throwaway()
            _stops.append(lambda: shutil.rmtree(server.data_dir, ignore_errors=True))
            _stops.append(server.stop)
            os.environ["REDIS_URL"] = server.start()
            # Subprocesses (daphne, workers) must share the test database file.
            _set_var_dir(server.data_dir)
        elif worker_id():
            raise pytest.UsageError(
                "REDIS_URL names one server, which parallel workers would empty under each "
                "other's tests: unset it, or run without -n"
            )
        return (yield)
    except BaseException:
        # pytest_unconfigure never runs if Django fails to set up: stop the servers here.
        _stop_servers()
        raise


def _control(cluster: bool):
    """The controller of parallel workers: it runs no test and starts no Redis. Django's
    settings load here too, so they get a throwaway var folder, not the checkout's var/
    (which `make run` uses); the workers get their own (the variable is unset again
    before they start). The cluster run's PostgreSQL starts here, for every worker."""
    if os.environ.get("SOCIALSITE_VAR_DIR"):
        os.environ[GIVEN_VAR_DIR] = os.environ["SOCIALSITE_VAR_DIR"]
    var_dir = tempfile.mkdtemp(prefix="socialsite-controller-")
    _stops.append(lambda: shutil.rmtree(var_dir, ignore_errors=True))
    os.environ["SOCIALSITE_VAR_DIR"] = var_dir
    if cluster:
        _header.append("redis: a cluster of 3 masters for each worker")
        _start_postgres()
    elif os.environ.get("REDIS_URL"):
        raise pytest.UsageError(
            "REDIS_URL names one server, which parallel workers would empty under each "
            "other's tests: unset it, or run without -n"
        )
    else:
        _header.append("redis: a server of its own for each worker")
    result = yield
    os.environ.pop("SOCIALSITE_VAR_DIR")
    if os.environ.get(GIVEN_VAR_DIR):
        os.environ["SOCIALSITE_VAR_DIR"] = os.environ[GIVEN_VAR_DIR]
    return result


def _set_var_dir(path: Path) -> None:
    """The var folder of this run (or this worker), unless the user gave one."""
    if worker_id():
        if not os.environ.get(GIVEN_VAR_DIR):
            os.environ["SOCIALSITE_VAR_DIR"] = str(path)
    else:
        os.environ.setdefault("SOCIALSITE_VAR_DIR", str(path))


def _start_cluster_and_postgres() -> None:
    from socialsite.testing.cluster import ClusterServers

    cluster = ClusterServers(masters=3)
    _stops.append(cluster.stop)
    os.environ["REDIS_URL"] = cluster.start()
    _set_var_dir(cluster.data_dir)
    _header.append(f"redis: a cluster of 3 masters, {os.environ['REDIS_URL']}")
    if worker_id() and os.environ.get(RUN_POSTGRES):
        # The controller's server: a database of this worker's own for manage.py commands
        # the tests run (pytest-django makes the tests' own, named after this worker's).
        from socialsite.testing.postgres import create_database

        url = f"{os.environ[RUN_POSTGRES].rsplit('/', 1)[0]}/socialsite_{worker_id()}"
        create_database(url)
        os.environ["DATABASE_URL"] = url
        return
    _start_postgres()


def _start_postgres() -> None:
    from socialsite.testing.postgres import throwaway_postgres

    if os.environ.get("DATABASE_URL"):
        _header.append("database: DATABASE_URL, as given")
        return
    postgres, why_not = throwaway_postgres()
    if postgres is None:
        message = f"database: SQLite, not PostgreSQL: {why_not}"
        sys.stderr.write(f"{message}\n")
    else:
        _stops.append(postgres.stop)
        os.environ["DATABASE_URL"] = os.environ[RUN_POSTGRES] = postgres.url
        message = f"database: PostgreSQL, {postgres.url}"
    _header.append(message)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """On parallel workers the long tests go first, longest first: a test that runs for
    minutes (the quick bench, the chaos test), started last, would leave every other
    worker idle until it ends. A test says it is long by the timeout it declares above
    the suite's (`@pytest.mark.timeout(600)`); the rest keep their order. Every worker
    collects the same order, as pytest-xdist requires."""
    if not worker_id():
        return
    default = float(config.getini("timeout") or 0)

    def declared(item) -> float:
        marker = item.get_closest_marker("timeout")
        seconds = float(marker.args[0]) if marker and marker.args else 0
        return -seconds if seconds > default else 0

    items.sort(key=declared)


def pytest_report_header(config):
    return _header


def pytest_unconfigure(config):
    _stop_servers()


def _stop_servers() -> None:
    while _stops:
        _stops.pop()()
