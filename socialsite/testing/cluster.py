"""A throwaway Redis Cluster of real servers (the embedded redis-server and its
redis-cli), for tests of code that must run on a cluster."""

import contextlib
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from socialsite.embedded_redis import redis_server_binary


def _free_port() -> int:
    """A port free for the server and for its cluster bus (the port + 10000)."""
    while True:
        port = random.randrange(20000, 30000)
        with contextlib.ExitStack() as stack:
            try:
                for candidate in (port, port + 10000):
                    probe = stack.enter_context(socket.socket())
                    probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
        return port


@contextlib.contextmanager
def throwaway_cluster(masters: int = 3):
    """Starts `masters` servers, each serving a share of the 16384 slots; yields a
    RedisCluster client (replies decoded, as the site's data client)."""
    server = redis_server_binary()
    cli = str(Path(server).with_name("redis-cli"))
    data = Path(tempfile.mkdtemp(prefix="socialsite-cluster-"))
    processes, ports = [], []
    try:
        for _ in range(masters):
            port = _free_port()
            workdir = data / str(port)
            workdir.mkdir()
            processes.append(
                subprocess.Popen(
                    [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
                     "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--appendonly", "no", "--save", "", "--daemonize", "no",
                     "--logfile", str(workdir / "redis.log")],
                    stdin=subprocess.DEVNULL, start_new_session=True,
                )
            )  # fmt: skip
            ports.append(port)
        for port in ports:
            _wait(lambda port=port: redis.Redis(port=port, socket_timeout=1).ping())
        subprocess.run(
            [cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in ports),
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=30,
        )  # fmt: skip
        for port in ports:
            _wait(lambda port=port: redis.Redis(port=port).cluster("info")["cluster_state"] == "ok")
        client = redis.RedisCluster(host="127.0.0.1", port=ports[0], decode_responses=True)
        try:
            yield client
        finally:
            client.close()
    finally:
        for process in processes:
            process.kill()
            process.wait()
        shutil.rmtree(data, ignore_errors=True)


def _wait(ready, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if ready():
                return
        except redis.RedisError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("The throwaway cluster did not come up in time")
        time.sleep(0.05)
