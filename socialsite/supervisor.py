"""Keeps `make run`'s children running: a child that exits (crashed, killed, or stopped
by someone else) is started again after a pause that doubles while it keeps failing,
and each exit and restart is written to the log. Only `stop` ends them for good.

Backoff as systemd's `Restart=always` with a growing `RestartSec`, or Kubernetes'
CrashLoopBackOff, kept short for a site: a child that stayed up for `STEADY_SECONDS`
counts as healthy again, so its next exit waits only `FIRST_DELAY`; one that keeps
exiting sooner waits 0.5, 1, 2, 4 ... up to `MOST_DELAY` seconds, never giving up (a
Redis that is down for a minute must not leave the site without workers once it is
back). The cap bounds both the downtime after a burst of crashes and the CPU a child
that can't start burns (a daphne's start costs about a second of CPU)."""

import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from socialsite import servers

# Seconds before the first restart of a child that was healthy.
FIRST_DELAY = 0.5
# The longest pause between restarts of a child that keeps failing.
MOST_DELAY = 10.0
# A child up this long before it exits was healthy: its failures in a row start again.
STEADY_SECONDS = 10.0


# prctl(2)'s option: the signal the kernel sends a process when its parent dies.
PR_SET_PDEATHSIG = 1


def dies_with_parent() -> None:
    """Asks Linux to send this process SIGTERM when its parent dies (a `preexec_fn`): a
    launcher killed with SIGKILL, which can't stop its children, leaves none behind to
    hold its port and its Redis socket (Redis, so told, still writes its AOF out)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() == 1:  # the parent died before the call above
            os.kill(os.getpid(), signal.SIGTERM)


def exit_description(returncode: int) -> str:
    """How a process ended, as a person would say it: "exited with code 1", "was killed by
    SIGKILL"."""
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


def restart_delay(failures: int, *, first: float = FIRST_DELAY, most: float = MOST_DELAY) -> float:
    """Seconds to wait before restarting a child that has failed `failures` times in a row
    (1 for the first): `first`, doubling each time, at most `most`."""
    return min(most, first * 2 ** max(0, failures - 1))


@dataclass
class Child:
    """One supervised process: its name in the log, how to start it, and its state."""

    name: str
    start: Callable[[], subprocess.Popen]
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    # Exits in a row, each after less than STEADY_SECONDS up.
    failures: int = 0
    # When a restart is due (time.monotonic()), while the child is down.
    restart_at: float | None = None
    # Stopped after every child of a higher layer has stopped (Redis before its clients).
    layer: int = 0


class Supervisor:
    """Starts children, restarts any that exit, and stops them all, newest first."""

    def __init__(
        self,
        *,
        log: Callable[[str], None] = lambda line: print(line, flush=True),
        first_delay: float = FIRST_DELAY,
        most_delay: float = MOST_DELAY,
        steady_seconds: float = STEADY_SECONDS,
    ) -> None:
        self.log = log
        self.first_delay = first_delay
        self.most_delay = most_delay
        self.steady_seconds = steady_seconds
        self.children: list[Child] = []
        self.stopped = False

    def add(
        self,
        name: str,
        start: Callable[[], subprocess.Popen],
        *,
        layer: int = 0,
        process: subprocess.Popen | None = None,
    ) -> subprocess.Popen:
        """Keeps a child called `name` running, started with `start` (or already running as
        `process`), stopped after every child of a higher `layer`; returns its process. A
        failure to start it this first time is raised."""
        child = Child(name, start, layer=layer)
        child.process = process or start()
        child.started_at = time.monotonic()
        self.children.append(child)
        return child.process

    def processes(self) -> list[subprocess.Popen]:
        """The children's processes now running or exited but not yet restarted."""
        return [child.process for child in self.children if child.process is not None]

    def tend(self) -> None:
        """One look at every child: one that exited is logged and its restart scheduled;
        a restart that is due is made. Nothing, once stopped."""
        if self.stopped:
            return
        now = time.monotonic()
        for child in self.children:
            if child.process is not None and child.process.poll() is not None:
                self._exited(child, now)
            if child.restart_at is not None and now >= child.restart_at:
                self._restart(child, now)

    def run(self, stopping: Callable[[], bool], interval: float = 0.2) -> None:
        """Tends the children until `stopping()` says so."""
        while not stopping():
            self.tend()
            time.sleep(interval)

    def stop(self, timeout: float = 10) -> None:
        """Terminates every child, a layer at a time from the highest (newest first
        within it), killing those still running after `timeout` seconds; none is
        restarted after."""
        self.stopped = True
        for layer in sorted({child.layer for child in self.children}, reverse=True):
            servers.stop(
                [c.process for c in self.children if c.layer == layer and c.process], timeout
            )

    def _exited(self, child: Child, now: float) -> None:
        assert child.process is not None
        up = now - child.started_at
        child.failures = 1 if up >= self.steady_seconds else child.failures + 1
        delay = restart_delay(child.failures, first=self.first_delay, most=self.most_delay)
        how = exit_description(child.process.returncode)
        self.log(
            f"make run: {child.name} (pid {child.process.pid}) {how} after {up:.1f} s; "
            f"restarting it in {delay:.1f} s"
        )
        child.process = None
        child.restart_at = now + delay

    def _restart(self, child: Child, now: float) -> None:
        child.restart_at = None
        try:
            child.process = child.start()
        except Exception as error:  # noqa: BLE001 - whatever it was, try again later
            child.failures += 1
            delay = restart_delay(child.failures, first=self.first_delay, most=self.most_delay)
            self.log(
                f"make run: {child.name} could not be started ({error}); "
                f"trying again in {delay:.1f} s"
            )
            child.restart_at = now + delay
            return
        child.started_at = now
        self.log(f"make run: {child.name} restarted (pid {child.process.pid})")
