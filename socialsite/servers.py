"""daphne serving the site: the launcher's processes, all on one port, and throwaway
ones on a free port for the end-to-end tests and the bench."""

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings


def daphne_command(port: int | str | None = None, *, fd: int | None = None) -> list[str]:
    """daphne (with deadlines for slow clients: socialsite.daphne_server) on
    127.0.0.1:`port`, or on the listening socket `fd` it inherits."""
    where = ["--fd", str(fd)] if fd is not None else ["-b", "127.0.0.1", "-p", str(port)]
    # How often daphne pings a WebSocket client, and how long it waits for the pong.
    pings = ["--ping-interval", str(settings.WEBSOCKET_PING_INTERVAL),
             "--ping-timeout", str(settings.WEBSOCKET_PING_TIMEOUT)]  # fmt: skip
    deadlines = ["--header-timeout", str(settings.HTTP_HEADER_TIMEOUT),
                 "--body-timeout", str(settings.HTTP_BODY_TIMEOUT),
                 "--body-min-rate", str(settings.HTTP_BODY_MIN_RATE)]  # fmt: skip
    server = [sys.executable, "-m", "socialsite.daphne_server"]
    return [*server, *where, *pings, *deadlines, "socialsite.asgi:application"]


def shared_port_sockets(port: int, count: int) -> list[socket.socket]:
    """`count` listening sockets on 127.0.0.1:`port` (0: a free one), one for each daphne
    process, to pass on with `--fd`.

    They are bound with SO_REUSEPORT, so the kernel spreads new connections over them by
    a hash of the client's address and port, and each process accepts from a queue of its
    own. (One socket shared by every process would let whichever process wakes first
    accept a whole burst of connections.) Throwaway servers close these copies once the
    processes have them, so a process that exits takes its socket out of the group; the
    launcher keeps them to restart a process on its own socket, whose queue holds the
    connections that arrive meanwhile."""
    if port:
        # SO_REUSEPORT would as gladly share the port with another server of this user
        # (a second `make run`): a socket without it fails if anyone listens there.
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", port))
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(("127.0.0.1", port))
            port = sock.getsockname()[1]
            sock.listen(socket.SOMAXCONN)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def start_daphnes(
    port: int, count: int, *, logs: list | None = None, **popen
) -> tuple[int, list[subprocess.Popen]]:
    """Starts `count` daphne processes serving 127.0.0.1:`port` (0: a free one), each
    with Popen options `popen` (and its own entry of `logs` as stdout and stderr);
    returns the port and the processes once every one of them listens."""
    sockets = shared_port_sockets(port, count)
    port = sockets[0].getsockname()[1]
    inodes = [os.fstat(sock.fileno()).st_ino for sock in sockets]
    processes: list[subprocess.Popen] = []
    try:
        for index, sock in enumerate(sockets):
            output = {"stdout": logs[index], "stderr": subprocess.STDOUT} if logs else {}
            processes.append(start_daphne(sock, **output, **popen))
        for sock in sockets:
            sock.close()
        for index, (process, inode) in enumerate(zip(processes, inodes, strict=True)):
            _wait_for(process, inode, logs[index].name if logs else None)
    except BaseException:
        stop(processes)
        raise
    finally:
        for sock in sockets:
            sock.close()
    return port, processes


def start_daphne(sock: socket.socket, **popen) -> subprocess.Popen:
    """A daphne process serving the listening socket `sock` (from shared_port_sockets),
    with Popen options `popen`; it may not listen yet (wait_listening)."""
    command = daphne_command(fd=sock.fileno())
    return subprocess.Popen(command, pass_fds=(sock.fileno(),), **popen)


def wait_listening(process: subprocess.Popen, sock: socket.socket) -> None:
    """Returns once daphne `process` listens on `sock`; RuntimeError if it exits first or
    takes over a minute."""
    _wait_for(process, os.fstat(sock.fileno()).st_ino, None)


def stop(processes: list[subprocess.Popen], timeout: float = 10) -> None:
    """Terminates `processes` (newest first), killing those still running after `timeout`."""
    for process in reversed(processes):
        if process.poll() is None:
            process.terminate()
    for process in reversed(processes):
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def throwaway_daphnes(
    log_dir: Path, env: dict[str, str], count: int = 1
) -> Iterator[tuple[str, list[subprocess.Popen]]]:
    """Serves the site with `count` daphne processes on one free port, with environment
    `env`, their output in `log_dir` (daphne-<port>.log, or daphne-<port>-<n>.log for
    several); yields (base URL, processes) once every one of them listens, and stops them
    after."""
    with contextlib.ExitStack() as stack:
        logs = [
            stack.enter_context(tempfile.NamedTemporaryFile("w", dir=log_dir, prefix="daphne-",
                                                            suffix=".log", delete=False))
            for _ in range(count)
        ]  # fmt: skip
        port, processes = start_daphnes(0, count, logs=logs, cwd=settings.BASE_DIR, env=env)
        for index, log in enumerate(logs):  # named once the port is known
            name = f"daphne-{port}.log" if count == 1 else f"daphne-{port}-{index}.log"
            Path(log.name).rename(Path(log_dir) / name)
        try:
            yield f"http://127.0.0.1:{port}", processes
        finally:
            stop(processes)


@contextlib.contextmanager
def throwaway_daphne(log_dir: Path, env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen]]:
    """One daphne process, as throwaway_daphnes: yields (base URL, process)."""
    with throwaway_daphnes(log_dir, env) as (base, [process]):
        yield base, process


def _wait_for(process: subprocess.Popen, inode: int, log_path: str | None) -> None:
    """Until `process` listens on the socket `inode`. The socket, bound before the process
    started, takes connections at once, so a connection can't tell, and LOG_LEVEL may
    hide daphne's "Listening on": the process's epoll set watching the socket can."""
    deadline = time.monotonic() + 60
    while not _watches(process.pid, inode):
        if process.poll() is not None or time.monotonic() > deadline:
            log = Path(log_path).read_text()[-2000:] if log_path else "(see its output)"
            raise RuntimeError(f"daphne did not start listening: {log}")
        time.sleep(0.05)


def _watches(pid: int, inode: int) -> bool:
    """Whether an epoll set of process `pid` watches the file `inode` (from /proc)."""
    watched = f"ino:{inode:x} "
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # a descriptor closed meanwhile
            epoll = os.readlink(fd) == "anon_inode:[eventpoll]"
            if epoll and watched in (Path(f"/proc/{pid}/fdinfo") / fd.name).read_text():
                return True
    return False
