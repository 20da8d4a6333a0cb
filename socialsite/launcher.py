"""`make run`: embedded Redis (unless REDIS_URL), migrations, a demo network on an
empty store (unless DEMO_NETWORK=0), worker and daphne.

Ctrl-C (or SIGTERM) stops everything this started, newest first. Children run
in their own sessions so the terminal's Ctrl-C reaches only this process, and
Redis outlives the processes that still talk to it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from socialsite.embedded_redis import EmbeddedRedis
from socialsite.servers import daphne_command

BASE_DIR = Path(__file__).resolve().parent.parent
# Demo users log in with this password; the seed makes the network the same every time.
DEMO_PASSWORD = "demo"
DEMO_NETWORK = ("--users", "50", "--follows-per-user", "8", "--posts-per-user", "20", "--seed", "1")


def manage(*args: str) -> list[str]:
    return [sys.executable, str(BASE_DIR / "manage.py"), *args]


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
    from django.conf import settings

    port = os.environ.get("PORT", "8000")
    redis_server = None
    children: list[subprocess.Popen] = []
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        if not os.environ.get("REDIS_URL"):
            redis_server = EmbeddedRedis(settings.VAR_DIR, persistent=True)
            os.environ["REDIS_URL"] = redis_server.start()
            print(f"Embedded Redis on {os.environ['REDIS_URL']} (AOF in {settings.VAR_DIR})")
        subprocess.run(manage("migrate", "--noinput", "-v", "0"), check=True)
        if settings.DEMO_NETWORK:
            seed = ("seed_network", "--if-empty", "--password", DEMO_PASSWORD, *DEMO_NETWORK)
            subprocess.run(manage(*seed), check=True)
        children.append(subprocess.Popen(manage("worker"), start_new_session=True))
        children.append(subprocess.Popen(daphne_command(port), start_new_session=True))
        print(f"Serving http://127.0.0.1:{port}/ (Ctrl-C stops everything)")
        while not stopping and all(child.poll() is None for child in children):
            time.sleep(0.5)
    finally:
        for child in reversed(children):
            if child.poll() is None:
                child.terminate()
        for child in reversed(children):
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        if redis_server:
            redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
