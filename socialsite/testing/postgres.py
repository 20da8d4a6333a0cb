"""A throwaway PostgreSQL server (Debian's `postgresql` package) for the cluster suite:
the ORM database a site on several machines shares, as SQLite can't be shared.

initdb and postgres refuse to run as root: as root, the server runs as the `postgres`
user the Debian package makes (through runuser)."""

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from socialsite.testing.cluster import free_port


def postgres_bin_dir() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian keeps it off PATH), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("postgres")
    return Path(on_path).parent if on_path else None


def _version(path: str) -> float:
    return float(Path(path).parent.parent.name)


class ThrowawayPostgres:
    """One server on a free loopback port with a fresh data folder, trusting local
    connections; `url` is its DATABASE_URL."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.port = free_port()
        self.data_dir = Path(tempfile.mkdtemp(prefix="socialsite-postgres-"))
        self.process: subprocess.Popen | None = None
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            pwd.getpwnam("postgres")  # KeyError: no user to run it as
            shutil.chown(self.data_dir, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/socialsite"

    def start(self, timeout: float = 30.0) -> str:
        pgdata = self.data_dir / "data"
        subprocess.run(
            [*self.as_user, str(self.bin_dir / "initdb"), "-D", str(pgdata), "-U", "postgres",
             "-A", "trust", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        log = open(self.data_dir / "postgres.log", "wb")  # noqa: SIM115 (the server's, kept open)
        self.process = subprocess.Popen(
            [*self.as_user, str(self.bin_dir / "postgres"), "-D", str(pgdata),
             "-p", str(self.port), "-h", "127.0.0.1", "-k", str(self.data_dir),
             "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
             "-c", "max_connections=200"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        ready = str(self.bin_dir / "pg_isready")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited; see {self.data_dir / 'postgres.log'}")
            probe = [ready, "-q", "-h", "127.0.0.1", "-p", str(self.port)]
            if subprocess.run(probe).returncode == 0:
                # The URL's database, for manage.py commands the tests run (the tests' own
                # is made by pytest-django).
                create_database(self.url)
                return self.url
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("postgres did not start in time")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            # SIGQUIT is PostgreSQL's immediate shutdown: the data is thrown away anyway.
            # As root the child is runuser's; the whole session gets the signal.
            os.killpg(self.process.pid, 3)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()
        self.process = None
        shutil.rmtree(self.data_dir, ignore_errors=True)


def create_database(url: str) -> None:
    """Makes the database `url` names on its (throwaway) server."""
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')


def throwaway_postgres() -> tuple[ThrowawayPostgres | None, str]:
    """A started server, or None and why there is none (no PostgreSQL installed, or it
    would not start)."""
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        return None, "PostgreSQL is not installed (Debian: apt-get install postgresql)"
    try:
        server = ThrowawayPostgres(bin_dir)
    except KeyError:
        return None, "running as root and there is no `postgres` user to run PostgreSQL as"
    try:
        server.start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        server.stop()
        return None, f"PostgreSQL would not start: {error}"
    return server, ""
