"""daphne serving the site: the launcher's server, and throwaway ones on a free port
for the end-to-end tests and the bench."""

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings


def daphne_command(port: int | str) -> list[str]:
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
            "socialsite.asgi:application"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def throwaway_daphne(log_dir: Path, env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen]]:
    """Serves the site on a free port with environment `env`, its output in `log_dir`;
    yields (base URL, process) once it accepts connections, and stops it after."""
    port = free_port()
    log_path = log_dir / f"daphne-{port}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            daphne_command(port),
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
