"""The suite on parallel pytest-xdist workers (`make test`'s -n): each worker has its own
Redis server (or cluster), var folder and test database, which the processes a test
starts find too; a test that declares a long timeout starts first on its worker."""

import json
import os
import subprocess
import sys
import textwrap

import pytest
from django.conf import settings

from socialsite.testing.postgres import postgres_bin_dir

# Each test records, in a file named after its worker, what it ran on.
INNER_TESTS = textwrap.dedent(
    """
    import json
    import os

    import pytest
    from django.conf import settings

    from socialsite.redis import for_each_primary, get_redis
    from socialsite.testing.databases import subprocess_database_env


    def record(name):
        servers = for_each_primary(get_redis())
        run_ids = sorted(server.info("server")["run_id"] for server in servers)
        worker = os.environ["PYTEST_XDIST_WORKER"]
        with open(os.path.join(os.environ["WORKERS_RECORD"], worker), "a") as out:
            out.write(json.dumps({
                "test": name,
                "redis": run_ids,
                "var": str(settings.VAR_DIR),
                "media": str(settings.MEDIA_ROOT),
                "database": subprocess_database_env(),
                "database_name": str(settings.DATABASES["default"]["NAME"]),
            }) + "\\n")


    @pytest.mark.parametrize("n", range(6))
    def test_quick(n, db):
        record(f"quick{n}")


    @pytest.mark.timeout(300)
    def test_long(db):
        record("long")
    """
)


def run_on_two_workers(tmp_path, *options: str) -> dict[str, list[dict]]:
    """Runs INNER_TESTS on 2 workers, as `make test` would; returns each worker's record."""
    (tmp_path / "test_inner.py").write_text(INNER_TESTS)
    record = tmp_path / "record"
    record.mkdir()
    # A run of its own: none of this run's servers, folders or worker name.
    ours = ("REDIS_URL", "SOCIALSITE_VAR_DIR", "DATABASE_URL", "SQLITE_PATH", "PYTEST_XDIST")
    env = {name: value for name, value in os.environ.items() if not name.startswith(ours)}
    env = {name: value for name, value in env.items() if not name.startswith("SOCIALSITE_TEST")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "worksteal", "-p", "no:cacheprovider",
         "-c", str(settings.BASE_DIR / "pyproject.toml"), "--rootdir", str(settings.BASE_DIR),
         *options, str(tmp_path / "test_inner.py")],
        cwd=settings.BASE_DIR, env={**env, "WORKERS_RECORD": str(record)},
        capture_output=True, text=True, timeout=280,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "7 passed" in done.stdout
    return {
        worker.name: [json.loads(line) for line in worker.read_text().splitlines()]
        for worker in record.iterdir()
    }


def assert_each_worker_has_its_own(workers: dict[str, list[dict]]) -> None:
    assert sorted(workers) == ["gw0", "gw1"]
    seen = {}
    for worker, tests in workers.items():
        for field in ("redis", "var", "media", "database", "database_name"):
            (value,) = {json.dumps(test[field]) for test in tests}  # one a worker
            assert value not in seen.get(field, set()), f"{worker} shares its {field}"
            seen.setdefault(field, set()).add(value)
        assert tests[0]["database_name"].endswith(f"_{worker}")
    # The long test was started first on its worker (had it come last, the other worker
    # would have waited for it with nothing to do).
    (first,) = [
        tests[0]["test"] for tests in workers.values() if any(t["test"] == "long" for t in tests)
    ]
    assert first == "long"


@pytest.mark.timeout(300)
def test_each_worker_has_its_own_redis_var_folder_and_test_database(tmp_path):
    workers = run_on_two_workers(tmp_path)
    assert_each_worker_has_its_own(workers)
    for tests in workers.values():
        assert all(len(test["redis"]) == 1 for test in tests)
        assert all(test["database"]["SQLITE_PATH"].startswith(test["var"]) for test in tests)


@pytest.mark.timeout(300)
def test_on_a_cluster_each_worker_has_its_own_and_one_postgresql_serves_them_all(tmp_path):
    workers = run_on_two_workers(tmp_path, "--redis-cluster")
    assert_each_worker_has_its_own(workers)
    for tests in workers.values():
        assert all(len(test["redis"]) == 3 for test in tests)  # its own 3 masters
    urls = {
        test["database"].get("DATABASE_URL", "") for tests in workers.values() for test in tests
    }
    if postgres_bin_dir():  # else both run on SQLite, as the header says
        assert all(url.startswith("postgres://") for url in urls)
        assert len({url.rsplit("/", 1)[0] for url in urls}) == 1  # one server for both
