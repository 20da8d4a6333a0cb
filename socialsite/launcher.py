"""`make run`: embedded Redis (unless REDIS_URL), migrations (the schema's and the Redis
data's), a demo network on an empty store (unless DEMO_NETWORK=0), WORKERS workers and
WEB_PROCESSES daphne processes, all serving one port.

The port's sockets are bound here, one per daphne process with SO_REUSEPORT, and
handed over with daphne's `--fd` (socialsite.servers.shared_port_sockets): the kernel
spreads connections over the processes, and a port already taken fails here, once.
A child that exits (a crash, kill -9, someone's SIGTERM) is started again, with a
backoff, and the log says so (socialsite.supervisor); a restarted daphne serves the
socket its predecessor did. Only Ctrl-C (or SIGTERM) to this process stops everything
it started, newest first. Children run in their own sessions so the terminal's Ctrl-C
reaches only this process, and Redis outlives the processes that still talk to it;
they get SIGTERM should this process die without stopping them (kill -9)."""

import functools
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from socialsite.embedded_redis import EmbeddedRedis
from socialsite.servers import shared_port_sockets, start_daphne, wait_listening
from socialsite.supervisor import Supervisor, dies_with_parent

BASE_DIR = Path(__file__).resolve().parent.parent
# Demo users log in with this password; the seed makes the network the same every time.
DEMO_PASSWORD = "demo"
DEMO_NETWORK = ("--users", "50", "--follows-per-user", "8", "--posts-per-user", "20", "--seed", "1")
# More processes than this is a typo, not a plan: one machine's cores are far fewer.
MOST_PROCESSES = 256


def manage(*args: str) -> list[str]:
    return [sys.executable, str(BASE_DIR / "manage.py"), *args]


def collect_static() -> None:
    import django

    django.setup()
    from socialsite.staticfiles import collect

    collect()


def process_count(name: str) -> int:
    """The environment's `name` (default 1) as a process count; ValueError saying what is
    wrong otherwise."""
    value = os.environ.get(name, "1").strip()
    if not value.isdigit() or not 1 <= int(value) <= MOST_PROCESSES:
        raise ValueError(f"{name} must be a whole number from 1 to {MOST_PROCESSES}, not {value!r}")
    return int(value)


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
    try:
        web_processes, workers = process_count("WEB_PROCESSES"), process_count("WORKERS")
    except ValueError as error:
        print(f"make run: {error}", file=sys.stderr)
        return 2
    from django.conf import settings

    port = int(os.environ.get("PORT", "8000"))
    supervisor = Supervisor()
    own_session = {"start_new_session": True, "preexec_fn": dies_with_parent}
    sockets: list[socket.socket] = []
    stopping = False

    def stop_all(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop_all)
    signal.signal(signal.SIGINT, stop_all)
    try:
        if not os.environ.get("REDIS_URL"):
            redis_server = EmbeddedRedis(settings.VAR_DIR, persistent=True)
            os.environ["REDIS_URL"] = redis_server.start(preexec_fn=dies_with_parent)
            # A restart reads the append-only file again; until it has, Redis answers
            # LOADING, which the site shows as a 503.
            restart = functools.partial(redis_server.spawn, preexec_fn=dies_with_parent)
            supervisor.add("redis", restart, process=redis_server.process)
            print(f"Embedded Redis on {os.environ['REDIS_URL']} (AOF in {settings.VAR_DIR})")
        # The schema's migrations, then the Redis data's (timeline.data_migrations): an
        # older version's data in var/ is upgraded once, saying what each step did.
        subprocess.run(manage("migrate", "--noinput", "-v", "0"), check=True)
        # The static files under hashed names, gzipped, as the pages link them
        # (STORAGES["staticfiles"]), in var/static/: copied only when static/ changed,
        # and never while another process copies them (the suite runs this beside
        # servers that read that folder).
        collect_static()
        if settings.DEMO_NETWORK:
            seed = ("seed_network", "--if-empty", "--password", DEMO_PASSWORD, *DEMO_NETWORK)
            subprocess.run(manage(*seed), check=True)
        for number in range(1, workers + 1):
            start = functools.partial(subprocess.Popen, manage("worker"), **own_session)
            supervisor.add(f"worker {number}", start, layer=1)
        try:
            sockets = shared_port_sockets(port, web_processes)
        except OSError as error:
            print(f"make run: can't serve on port {port}: {error.strerror}", file=sys.stderr)
            return 1
        # Each daphne keeps its socket across restarts: the launcher's copy keeps the
        # socket's queue, so connections the kernel hands it while its process is down
        # wait there for the next one rather than being refused.
        daphnes = [
            supervisor.add(
                f"daphne {number}",
                functools.partial(start_daphne, sock, **own_session),
                layer=1,
            )
            for number, sock in enumerate(sockets, 1)
        ]
        try:
            for process, sock in zip(daphnes, sockets, strict=True):
                wait_listening(process, sock)
        except RuntimeError as error:  # a daphne process that exited before it listened
            print(f"make run: {error}", file=sys.stderr)
            return 1
        print(
            f"Serving http://127.0.0.1:{port}/ with {web_processes} daphne process(es) and "
            f"{workers} worker(s) (Ctrl-C stops everything)",
            flush=True,
        )
        supervisor.run(lambda: stopping)
    finally:
        supervisor.stop()
        for sock in sockets:
            sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
