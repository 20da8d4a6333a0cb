"""Counting Redis round trips for real, on the client's sockets.

A round trip is a write that follows a read (or opens the conversation): a single
command, a whole pipeline, or a bulk pipeline that goes out in several writes before
its replies are read, each counts once. Connection set-up (HELLO, CLIENT SETINFO)
counts too: a pool that reconnected per request would show it."""

import redis

from socialsite.redis import for_each_primary


class RoundTripCounter:
    def __init__(self) -> None:
        self.count = 0


class _CountingSocket:
    def __init__(self, sock, counter: RoundTripCounter) -> None:
        self._sock = sock
        self._counter = counter
        self._answered = True

    def sendall(self, data, *args):
        if self._answered:
            self._counter.count += 1
            self._answered = False
        return self._sock.sendall(data, *args)

    def recv(self, *args):
        self._answered = True
        return self._sock.recv(*args)

    def recv_into(self, *args):
        self._answered = True
        return self._sock.recv_into(*args)

    def __getattr__(self, name):
        return getattr(self._sock, name)


def count_round_trips(client: redis.Redis | redis.RedisCluster) -> RoundTripCounter:
    """Makes every connection `client`'s pools open from now on count its round trips
    (a cluster client's: one pool per primary)."""
    counter = RoundTripCounter()
    for server in for_each_primary(client):
        pool = server.connection_pool

        class CountingConnection(pool.connection_class):
            def _connect(self):
                return _CountingSocket(super()._connect(), counter)

        pool.connection_class = CountingConnection
        # Connections already pooled were built from the old class: drop them.
        pool.disconnect()
    return counter
