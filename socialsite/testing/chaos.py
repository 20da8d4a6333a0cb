"""The chaos test's site and faults: the site as `make run` serves it (the launcher, its
daphne processes and workers) on a free port and a folder of its own, on a Redis with
its append-only file that the test owns, so that it can kill it and start it again on
that file, as an operator's restart would; and the faults, at random times: kill -9 of a
worker, of a daphne process, and of Redis."""

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import redis
import requests
from django.conf import settings

from socialsite import keys
from socialsite.embedded_redis import EmbeddedRedis
from socialsite.servers import shared_port_sockets
from timeline.feeds import home_list

# The site's settings for the run. Fan-out past a post's first 10 followers goes to the
# workers in one job (up to 2,000 followers), which a killed worker leaves half done; a dead
# worker's job is taken over after 2 s, not 30; the traffic never reaches a per-account
# limit (a 429 would only make fewer writes to check).
SITE_ENV = {
    "DEMO_NETWORK": "0",
    "WEB_PROCESSES": "2",
    "WORKERS": "2",
    "POSTS_PER_PASS": "10",
    "FAN_OUT_JOB_SIZE": "2000",
    "JOB_CLAIM_IDLE_MS": "2000",
    **{f"RATE_LIMIT_{name}": "100000/60" for name in ("POSTS", "FOLLOWS", "REACTIONS")},
    "RATE_LIMIT_MESSAGES": "100000/60",
}
# Seconds Redis stays down after its kill, at most (at random from a tenth of it).
REDIS_DOWN_SECONDS = 3.0
# What the faults kill: each kind twice, in a random order. CHAOS_FAULTS (kinds,
# comma-separated, e.g. "redis,redis") runs others instead, to tell one fault's damage
# from another's when a run fails.
FAULTS = ("worker", "daphne", "redis") * 2
# daphne's access log: a line a request, of no help in telling why a run failed.
ACCESS_LOG_LINE = re.compile(r'^\S+:\d+ - - \[[^]]*\] "')
# A traceback's last line: the exception's class (dotted, maybe) and its message.
EXCEPTION_LINE = re.compile(r"^[\w.]+(Error|Exception|Exit|Interrupt)\b")


class ChaosSite:
    """The launcher serving the site on a free port from `folder` (its SQLite, its log),
    on a persistent Redis in `folder`/redis; `start` it, `stop` it (and anything it left)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.redis = EmbeddedRedis(folder / "redis", persistent=True)
        [sock] = shared_port_sockets(0, 1)
        with sock:
            self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "launcher.log"
        self.launcher: subprocess.Popen | None = None
        self.seen: set[int] = set()  # every process of the site's ever seen, to end them
        # An early and the last of the fans, whose fan-out a worker's kill interrupts.
        self.fans: tuple[int, int] | None = None

    def env(self) -> dict[str, str]:
        env = {
            **os.environ,
            **SITE_ENV,
            "DJANGO_SETTINGS_MODULE": "socialsite.settings",
            "SOCIALSITE_VAR_DIR": str(self.folder),
            "REDIS_URL": self.redis.url,
            "PORT": str(self.port),
        }
        # Its own SQLite in its folder, not the suite's database.
        for name in ("SQLITE_PATH", "DATABASE_URL"):
            env.pop(name, None)
        return env

    def start(self, timeout: float = 120) -> None:
        """Starts Redis and the launcher; returns once the launcher says it serves."""
        self.redis.start()
        with open(self.log_path, "w") as log:
            self.launcher = subprocess.Popen(
                [sys.executable, "-m", "socialsite.launcher"], cwd=settings.BASE_DIR,
                env=self.env(), stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while "Serving http" not in self.log_path.read_text():
            if self.launcher.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the launcher didn't start serving:\n{self.log_tail()}")
            time.sleep(0.2)

    def log_tail(self, lines: int = 60) -> str:
        """The end of the launcher's log (its processes' output), access log lines left out."""
        said = self.log_path.read_text().splitlines()
        return "\n".join([line for line in said if not ACCESS_LOG_LINE.match(line)][-lines:])

    def errors_logged(self) -> list[str]:
        """The exceptions the launcher's log names (the last line of each traceback), the
        most frequent first, with their counts."""
        said = self.log_path.read_text().splitlines()
        found = Counter(line[:160] for line in said if EXCEPTION_LINE.match(line))
        return [f"{count} x {line}" for line, count in found.most_common()]

    def processes(self) -> dict[int, str]:
        """The launcher's processes now (its descendants): pid -> command line."""
        found: dict[int, str] = {}
        pending = [self.launcher.pid] if self.launcher else []
        while pending:
            pid = pending.pop()
            with contextlib.suppress(OSError):
                for child in map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split()):
                    command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
                    found[child] = command.decode(errors="replace")
                    pending.append(child)
        self.seen |= set(found)
        return found

    def of_kind(self, kind: str) -> list[int]:
        """The pids of the site's daphne processes or its workers."""
        mark = "daphne" if kind == "daphne" else "manage.py worker"
        return [pid for pid, command in self.processes().items() if mark in command]

    def kill(self, kind: str, chooser: random.Random) -> str:
        """kill -9 of a worker, a daphne process or Redis (started again on its file after
        a few seconds down); says what it did."""
        if kind == "redis":
            assert self.redis.process is not None
            pid = self.redis.process.pid
            self.redis.process.kill()
            self.redis.process.wait()
            down = chooser.uniform(REDIS_DOWN_SECONDS / 10, REDIS_DOWN_SECONDS)
            time.sleep(down)
            restarted = time.monotonic()
            self.redis.start(timeout=60)  # returns once it has loaded its file
            loaded = time.monotonic() - restarted
            return (
                f"killed redis-server {pid}, restarted {down:.1f} s later, loaded in {loaded:.1f} s"
            )
        pids = self.of_kind(kind)
        if not pids:
            return f"found no {kind} to kill (the launcher has {self.processes() or 'none'})"
        if kind == "worker" and self.fans:
            caught = self.kill_in_a_fan_out(pids)
            if caught:
                return caught
            pids = self.of_kind(kind)  # those of a while ago may have ended
            if not pids:
                return f"found no {kind} to kill after looking for a fan-out"
        pid = chooser.choice(pids)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return f"killed {kind} {pid}"

    def kill_in_a_fan_out(self, pids: list[int], seconds: float = 15) -> str | None:
        """Kills the worker (of `pids`) delivering a status to the fans, between the home
        of an early fan and the last one's (`fans`, in follow order: the order a fan-out
        walks them), writes frozen meanwhile (CLIENT PAUSE) so it can't finish first;
        says what it did, or None if no fan-out was caught within `seconds`. A kill at a
        random time would almost never land inside those few milliseconds."""
        early, last = self.fans
        conn = redis.Redis(unix_socket_path=str(self.redis.socket), decode_responses=True)
        deadline = time.monotonic() + seconds
        with contextlib.suppress(redis.RedisError), conn:
            newest = home_list.queue_window(conn, early, 0)[:1]
            while time.monotonic() < deadline:
                head = home_list.queue_window(conn, early, 0)[:1]
                if head == newest:
                    time.sleep(0.0005)
                    continue
                newest = head
                conn.execute_command("CLIENT", "PAUSE", 10_000, "WRITE")
                try:
                    if head[0] in home_list.queue_window(conn, last, 0):
                        continue  # delivered to every fan already
                    # Still the site's workers: a pid of one since ended may be reused.
                    alive = set(self.of_kind("worker"))
                    for pid in set(self.holding_a_job(conn, pids)) & alive:
                        os.kill(pid, signal.SIGKILL)
                        return f"killed worker {pid} in the fan-out of status {head[0]}"
                finally:
                    conn.execute_command("CLIENT", "UNPAUSE")
        return None

    @staticmethod
    def holding_a_job(conn: redis.Redis, pids: list[int]) -> list[int]:
        """Which of the workers `pids` hold a job (read, not yet acknowledged)."""
        # A worker's consumer is named host-pid (socialsite.jobs.work).
        return [
            int(pid)
            for consumer in conn.xinfo_consumers(keys.JOB_STREAM, keys.JOB_GROUP)
            if consumer["pending"]
            for pid in [consumer["name"].rpartition("-")[2]]
            if pid.isdigit() and int(pid) in pids
        ]

    def answers(self) -> bool:
        """Whether the site answers a page (as a visitor) with a 200 now."""
        try:
            return requests.get(f"{self.base}/accounts/login/", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def probe(self, *args: object) -> dict:
        """What socialsite.testing.chaos_probe says about the site's data."""
        done = subprocess.run(
            [sys.executable, "-m", "socialsite.testing.chaos_probe", *map(str, args)],
            cwd=settings.BASE_DIR, env=self.env(), capture_output=True, text=True, timeout=180,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.splitlines()[-1])

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        """A manage.py command on the site's data."""
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=self.env(),
            capture_output=True, text=True, timeout=180,
        )  # fmt: skip

    def stop(self) -> None:
        """Stops the launcher as Ctrl-C does, then ends whatever of the site is left (a
        launcher that died leaves its children running: they have sessions of their
        own) and Redis."""
        if self.launcher:
            self.processes()
            if self.launcher.poll() is None:
                self.launcher.send_signal(signal.SIGINT)
                try:
                    self.launcher.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    self.launcher.kill()
                    self.launcher.wait()
            for pid in self.seen:
                if self.is_ours(pid):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        self.redis.stop()

    def is_ours(self, pid: int) -> bool:
        """Whether process `pid` is still one of the site's (a pid of one that ended may
        be another program's by now): its environment names the site's folder."""
        try:
            environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            return False
        return f"SOCIALSITE_VAR_DIR={self.folder}".encode() in environment


def run_faults(
    site: ChaosSite, chooser: random.Random, seconds: float, stop: threading.Event
) -> list[str]:
    """Runs FAULTS in a random order over `seconds`, each at a random time in a slot of
    its own (so the site has a few seconds between them); returns what each did, with
    the time it began from the start."""
    chosen = os.environ.get("CHAOS_FAULTS")
    kinds = chosen.split(",") if chosen else list(FAULTS)
    assert set(kinds) <= set(FAULTS), f"CHAOS_FAULTS: kinds are {set(FAULTS)}, not {chosen}"
    chooser.shuffle(kinds)
    slot = seconds / len(kinds)
    started, said = time.monotonic(), []
    for number, kind in enumerate(kinds):
        at = started + slot * number + chooser.uniform(0.1, 0.7) * slot
        if stop.wait(max(0.0, at - time.monotonic())):
            break
        began = time.monotonic() - started
        said.append(f"{began:5.1f} s: {site.kill(kind, chooser)}")
    return said
