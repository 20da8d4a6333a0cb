"""A real daphne process for the HTTP and streaming parts, on the bench's Redis."""

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def daphne(var_dir: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """Serves the site (with the bench's bare view) on a free port; yields (base URL, process)."""
    port = free_port()
    log_path = var_dir / f"daphne-{port}.log"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings"}
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "socialsite.asgi:application"],
            cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            _wait_for(port, process, log_path)
            yield f"http://127.0.0.1:{port}", process
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_for(port: int, process: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(log_path.read_text()[-2000:]) from None
            time.sleep(0.1)


def rss_bytes(pid: int) -> int:
    """Resident memory of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
