"""A real daphne process for the HTTP and streaming parts, on the bench's Redis."""

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

from socialsite.servers import throwaway_daphnes


@contextlib.contextmanager
def daphne(var_dir: Path, **settings: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """Serves the site (with the bench's bare view) on a free port, with environment
    `settings` added; yields (base URL, process)."""
    with daphnes(var_dir, 1, **settings) as (base, [process]):
        yield base, process


@contextlib.contextmanager
def daphnes(
    var_dir: Path, count: int, **settings: str
) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """As daphne, with `count` processes on one port (as WEB_PROCESSES serves); yields
    (base URL, processes)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings", **settings}
    with throwaway_daphnes(var_dir, env, count) as served:
        yield served


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
