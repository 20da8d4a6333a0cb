"""A throwaway Redis Cluster of real servers (the embedded redis-server and its
redis-cli), for the cluster suite (`make test-cluster`) and tests of code that must
run on a cluster."""

import contextlib
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from socialsite.embedded_redis import (
    PUBSUB_BUFFER_LIMIT,
    compact_encoding_args,
    redis_server_binary,
)
from socialsite.redis import connect_cluster


def free_port() -> int:
    """A port free for the server and for its cluster bus (the port + 10000). Each of a
    run's parallel workers (pytest-xdist's gw0, gw1, ...) draws from a range of its own,
    so two can't both find one port free before either binds it."""
    low, high = 20000, 30000
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and worker[2:].isdigit():
        low += int(worker[2:]) % 10 * 1000
        high = low + 1000
    while True:
        port = random.randrange(low, high)
        with contextlib.ExitStack() as stack:
            try:
                for candidate in (port, port + 10000):
                    probe = stack.enter_context(socket.socket())
                    probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
        return port


class ClusterServers:
    """`masters` servers each serving a share of the 16384 slots, and `replicas` replicas
    of each; `url` is the REDIS_URL that selects the cluster (see socialsite.redis)."""

    def __init__(self, masters: int = 3, replicas: int = 0) -> None:
        self.masters, self.replicas = masters, replicas
        self.data_dir = Path(tempfile.mkdtemp(prefix="socialsite-cluster-"))
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def start(self) -> str:
        """Starts the servers, joins them into one cluster; returns the cluster's URL."""
        server = redis_server_binary()
        cli = str(Path(server).with_name("redis-cli"))
        try:
            for _ in range(self.masters * (1 + self.replicas)):
                port = free_port()
                workdir = self.data_dir / str(port)
                workdir.mkdir()
                self.processes.append(
                    subprocess.Popen(
                        [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
                         "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                         "--cluster-node-timeout", "2000",
                         "--appendonly", "no", "--save", "", "--daemonize", "no",
                         "--client-output-buffer-limit", *PUBSUB_BUFFER_LIMIT,
                         *compact_encoding_args(),
                         "--logfile", str(workdir / "redis.log")],
                        # Nothing to our stdout: a server outliving a killed run must not
                        # hold its caller's pipe open.
                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, start_new_session=True,
                    )
                )  # fmt: skip
                self.ports.append(port)
            for port in self.ports:
                _wait(lambda port=port: redis.Redis(port=port, socket_timeout=1).ping())
            subprocess.run(
                [cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in self.ports),
                 "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                check=True, capture_output=True, timeout=60,
            )  # fmt: skip
            for port in self.ports:
                _wait(lambda port=port: _settled(port, len(self.ports)), timeout=30)
            _wait(lambda: self._replicas_in_sync() == self.masters * self.replicas, timeout=30)
        except BaseException:
            self.stop()
            raise
        return self.url

    def _replicas_in_sync(self) -> int:
        """How many servers are replicas whose link to their master is up."""
        replication = [
            redis.Redis(port=port, socket_timeout=1, decode_responses=True).info("replication")
            for port in self.ports
        ]
        return sum(info.get("master_link_status") == "up" for info in replication)

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
            process.wait()
        self.processes = []
        shutil.rmtree(self.data_dir, ignore_errors=True)


def _settled(port: int, nodes: int) -> bool:
    """The node sees the whole cluster, every slot served (replicas included)."""
    node = redis.Redis(port=port, socket_timeout=1, decode_responses=True)
    info = node.cluster("info")
    return info["cluster_state"] == "ok" and int(info["cluster_known_nodes"]) == nodes


@contextlib.contextmanager
def throwaway_cluster(masters: int = 3, replicas: int = 0) -> Iterator[redis.RedisCluster]:
    """A started ClusterServers; yields a RedisCluster client (replies decoded, as the
    site's data client). The client's `servers` is the ClusterServers."""
    servers = ClusterServers(masters, replicas)
    try:
        client = connect_cluster(servers.start(), decode_responses=True)
        client.servers = servers
        try:
            yield client
        finally:
            client.close()
    finally:
        servers.stop()


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
