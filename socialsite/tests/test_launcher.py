"""`make run` (socialsite.launcher) with several web processes and workers: real
processes, on this run's Redis, in a folder of their own."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from django.conf import settings

from socialsite import keys
from socialsite.jobs import enqueue
from socialsite.servers import shared_port_sockets
from socialsite.testing.waits import wait_for


def launcher_env(tmp_path: Path, port: int, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "SOCIALSITE_VAR_DIR": str(tmp_path),  # its own SQLite, migrated by the launcher
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
        "DEMO_NETWORK": "0",
        "PORT": str(port),
        **extra,
    }
    env.pop("SQLITE_PATH", None)
    return env


def launch(env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "socialsite.launcher"], cwd=settings.BASE_DIR, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def children(pid: int) -> dict[int, str]:
    """A process's children: pid -> command line."""
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return {int(c): Path(f"/proc/{c}/cmdline").read_text().replace("\0", " ") for c in found}


def serving(pids: list[int], port: int) -> set[int]:
    """Which of `pids` hold an established connection on local `port` (from /proc)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
            inodes.add(fields[9])
    held = set()
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            link = os.readlink(fd) if fd.is_symlink() else ""
            if link.startswith("socket:[") and link[8:-1] in inodes:
                held.add(pid)
    return held


class Output:
    """A launcher's output, read line by line as it comes on a thread of its own."""

    def __init__(self, launcher: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, args=(launcher,), daemon=True)
        self._reader.start()

    def _read(self, launcher: subprocess.Popen) -> None:
        for line in launcher.stdout:
            self.lines.append(line)

    def said(self, start: str) -> list[str]:
        """Waits (a minute at most) for a line starting with `start`; returns every such
        line so far."""
        wait_for(lambda: any(line.startswith(start) for line in self.lines), timeout=60)
        return [line for line in self.lines if line.startswith(start)]


def page_status(url: str) -> int:
    """The status `url` answers with, an error's too (a 503 while Redis restarts)."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def child_of_kind(pid: int, kind: str) -> int:
    """The one child of the launcher `pid` whose command line holds `kind`."""
    wait_for(lambda: all(children(pid).values()))
    [child] = [c for c, command in children(pid).items() if kind in command]
    return child


def free_port() -> int:
    [sock] = shared_port_sockets(0, 1)
    with sock:
        return sock.getsockname()[1]


def test_make_run_serves_one_port_with_several_processes_and_ctrl_c_stops_them_all(tmp_path):
    port = free_port()
    # Its static files collected into a folder of its own (as a fresh clone's var/static/).
    static = str(tmp_path / "static")
    env = launcher_env(
        tmp_path, port, WEB_PROCESSES="2", WORKERS="2", SOCIALSITE_STATIC_ROOT=static
    )
    launcher = launch(env)
    opened: list[socket.socket] = []
    try:
        said = []
        for line in launcher.stdout:
            said.append(line)
            if line.startswith("Serving"):
                break
        assert "2 daphne process(es) and 2 worker(s)" in said[-1], "".join(said)
        # A new, empty store is stamped at the newest data version: nothing to upgrade.
        assert not [line for line in said if "migration" in line or "Converted" in line], said
        # A child the launcher just started may not show its command line for a moment.
        wait_for(lambda: all(children(launcher.pid).values()))
        started = children(launcher.pid)
        daphnes = [pid for pid, command in started.items() if "daphne" in command]
        workers = [pid for pid, command in started.items() if "manage.py worker" in command]
        assert (len(daphnes), len(workers)) == (2, 2)
        # The kernel picks a process by a hash of each connection's address: keep
        # connecting until both processes hold one (two in a row miss: 1 in 2, and so on).
        while serving(daphnes, port) != set(daphnes) and len(opened) < 64:
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            opened.append(sock)
            sock.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert sock.recv(12) == b"HTTP/1.1 200"
        assert serving(daphnes, port) == set(daphnes)
        # The pages' stylesheet, collected by the launcher: under its hashed name, gzipped.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/") as page:
            stylesheet = re.search(
                r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page.read().decode()
            )
        assert stylesheet, "no hashed stylesheet on the login page"
        asking = {"Accept-Encoding": "gzip"}
        request = urllib.request.Request(f"http://127.0.0.1:{port}{stylesheet[1]}", headers=asking)
        with urllib.request.urlopen(request) as answer:
            assert answer.headers["Content-Encoding"] == "gzip"

        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(timeout=60) == 0
        for pid in started:
            assert not Path(f"/proc/{pid}").exists()
    finally:
        for sock in opened:
            sock.close()
        launcher.kill()
        launcher.wait()


@pytest.mark.parametrize("value", ["0", "two", "-1", "1000"])
def test_a_bad_process_count_stops_make_run_before_it_starts_anything(tmp_path, value):
    done = subprocess.run(
        [sys.executable, "-m", "socialsite.launcher"], cwd=settings.BASE_DIR,
        env=launcher_env(tmp_path, free_port(), WORKERS=value),
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"WORKERS must be a whole number from 1 to 256, not {value!r}" in done.stderr
    assert not (tmp_path / "db.sqlite3").exists()


def test_make_run_refuses_a_port_another_server_listens_on(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        launcher = launch(launcher_env(tmp_path, port))
        output, _ = launcher.communicate(timeout=120)
    assert launcher.returncode == 1
    assert f"can't serve on port {port}: Address already in use" in output


def test_make_run_restarts_a_child_that_dies_and_says_so_and_ctrl_c_still_stops_all(tmp_path):
    port = free_port()
    env = launcher_env(tmp_path, port)
    env.pop("REDIS_URL", None)  # its own embedded Redis, to kill
    launcher = launch(env)
    output = Output(launcher)
    site = f"http://127.0.0.1:{port}"
    try:
        output.said("Serving")

        worker = child_of_kind(launcher.pid, "manage.py worker")
        os.kill(worker, signal.SIGKILL)
        [line] = output.said("make run: worker 1 restarted")
        assert f"make run: worker 1 (pid {worker}) was killed by SIGKILL" in "".join(output.lines)
        restarted = int(line.split("pid ")[1].rstrip(")\n"))
        assert child_of_kind(launcher.pid, "manage.py worker") == restarted
        # It takes jobs: one of a kind no handler knows is set aside as failed at once.
        jobs = redis.Redis(unix_socket_path=str(tmp_path / "redis.sock"))
        enqueue(jobs, ("no_such_kind", {}))
        wait_for(lambda: jobs.xlen(keys.FAILED_JOB_STREAM) == 1, timeout=60)

        daphne = child_of_kind(launcher.pid, "daphne")
        os.kill(daphne, signal.SIGTERM)
        output.said(f"make run: daphne 1 (pid {daphne}) exited")
        # Before its successor starts: the connection waits in the socket's queue for it.
        assert page_status(f"{site}/accounts/login/") == 200
        output.said("make run: daphne 1 restarted")

        redis_server = child_of_kind(launcher.pid, "redis-server")
        os.kill(redis_server, signal.SIGKILL)
        output.said("make run: redis restarted")
        # The home page of a visitor reads the global timeline from Redis.
        wait_for(lambda: page_status(f"{site}/") == 200, timeout=60)

        started = children(launcher.pid)
        assert len(started) == 3 and not {worker, daphne, redis_server} & set(started)
        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(timeout=60) == 0
        for pid in started:
            assert not Path(f"/proc/{pid}").exists()
    finally:
        launcher.kill()
        launcher.wait()


def ended(pid: int) -> bool:
    """Whether process `pid` is gone or a zombie (its new parent may not reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_launcher_killed_with_sigkill_leaves_no_child_behind(tmp_path):
    env = launcher_env(tmp_path, free_port())
    env.pop("REDIS_URL", None)  # its own embedded Redis, which must not be left running
    launcher = launch(env)
    output = Output(launcher)
    started: dict[int, str] = {}
    try:
        output.said("Serving")
        wait_for(lambda: all(children(launcher.pid).values()))
        started = children(launcher.pid)
        assert len(started) == 3
        launcher.kill()
        launcher.wait()
        wait_for(lambda: all(ended(pid) for pid in started), timeout=60)
    finally:
        launcher.kill()
        launcher.wait()
        for pid in started:  # left behind: this test failed, the next must not trip on them
            if not ended(pid):
                os.kill(pid, signal.SIGKILL)
