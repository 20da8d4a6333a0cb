"""The one way in to Redis: every other module asks here for a client."""

import asyncio
import weakref
from collections.abc import Iterable

import hiredis
import redis
import redis.asyncio
from django.conf import settings
from django_redis import get_redis_connection
from django_redis.pool import ConnectionFactory as DjangoRedisConnectionFactory


class ConnectionFactory(DjangoRedisConnectionFactory):
    """One connection pool per URL *and* pool options.

    django-redis keys its pools by URL alone, so whichever cache alias connected first
    imposed its options on the other: sessions ("default", pickled bytes) would get the
    "data" pool's decode_responses, or the services bytes instead of str."""

    def get_or_create_connection_pool(self, params: dict) -> redis.ConnectionPool:
        key = (params["url"], repr(sorted(self.pool_cls_kwargs.items())))
        if key not in self._pools:
            self._pools[key] = self.get_connection_pool(params)
        return self._pools[key]


def get_redis() -> redis.Redis:
    """The shared, pooled sync client for the social network's data (replies decoded to str)."""
    return get_redis_connection("data")


_async_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis.asyncio.Redis]" = (
    weakref.WeakKeyDictionary()
)


def get_async_redis() -> redis.asyncio.Redis:
    """An asyncio client for the running event loop (asyncio clients can't cross loops)."""
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        client = redis.asyncio.Redis.from_url(settings.REDIS_URL, decode_responses=True)
        _async_clients[loop] = client
    return client


def is_redis_unavailable(error: BaseException) -> bool:
    """True for the errors that mean the Redis server can't be reached right now."""
    from django_redis.exceptions import ConnectionInterrupted

    while error is not None:
        if isinstance(error, (redis.ConnectionError, redis.TimeoutError, ConnectionInterrupted)):
            return True
        error = error.__cause__ or error.__context__
    return False


class PackedPipeline(redis.commands.CoreCommands):
    """A pipeline for bulk work: commands are packed as they are queued and sent in one
    round trip, and the replies are read in bulk, raw, with no per-command parsing (as
    the server sent them, decoded to str if the client decodes: a hash is a dict, a
    set a list, a score a float).

    A fan-out pass is thousands of commands; on a redis-py pipeline the client's work per
    command costs several times what Redis spends running it (see `make bench`); a page
    of 30 statuses read here costs about half. Queue any command by its redis-py method;
    `for_each_key` packs one command shape for many keys at the cost of a string join."""

    # A full buffer goes out while the rest is packed, so Redis works as we pack.
    FLUSH_BYTES = 64 * 1024

    def __init__(self, client: redis.Redis) -> None:
        self._pool = client.connection_pool
        decode = self._pool.connection_kwargs.get("decode_responses")
        self._encoding = self._pool.connection_kwargs.get("encoding", "utf-8") if decode else None
        self._connection = None
        self._chunks: list[bytes] = []
        self._buffered = 0
        self._queued = 0

    def execute_command(self, *args, **options) -> None:
        self._queue(hiredis.pack_command(args), 1)

    def for_each_key(self, keys: Iterable[str], *commands: tuple) -> None:
        """Queues each of `commands` (a name, then the arguments after the key) for every key."""
        shapes = [
            hiredis.pack_command((name, _KEY, *args)).split(_KEY_BULK, 1)
            for name, *args in commands
        ]
        bulks = [b"$%d\r\n%s\r\n" % (len(key), key) for key in map(str.encode, keys)]
        packed = b"".join(head + bulk + tail for bulk in bulks for head, tail in shapes)
        self._queue(packed, len(bulks) * len(shapes))

    def _queue(self, packed: bytes, commands: int) -> None:
        self._chunks.append(packed)
        self._buffered += len(packed)
        self._queued += commands
        if self._buffered >= self.FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._connection is None:
            self._connection = self._pool.get_connection()
        try:
            self._connection.send_packed_command([b"".join(self._chunks)])
        except BaseException:
            self._release(broken=True)
            raise
        self._chunks, self._buffered = [], 0

    def execute(self) -> list:
        """Sends what is left and reads every reply; raises the first error reply, if any,
        once all are read (as a redis-py pipeline does). Returns the raw replies."""
        if not self._queued:
            return []
        if self._chunks:
            self._flush()
        try:
            replies = self._read(self._queued)
        except BaseException:
            self._release(broken=True)
            raise
        self._release(broken=False)
        self._queued = 0
        for reply in replies:
            if isinstance(reply, hiredis.ReplyError):
                raise redis.ResponseError(str(reply))
        return replies

    def _read(self, count: int) -> list:
        # Our own reader on the connection's socket: nothing else is in flight on it, and
        # redis-py's per-reply path is what this class exists to avoid.
        reader = hiredis.Reader(encoding=self._encoding)
        sock = self._connection._sock
        replies = []
        while len(replies) < count:
            data = sock.recv(1 << 16)
            if not data:
                raise redis.ConnectionError("Redis closed the connection mid-pipeline")
            reader.feed(data)
            while (reply := reader.gets()) is not False:
                replies.append(reply)
        return replies

    def __del__(self) -> None:
        # Dropped after a flush but before execute() (an error while queueing): the
        # replies left on the wire make the connection useless, but not lost to the pool.
        if self._connection is not None:
            self._release(broken=True)

    def _release(self, *, broken: bool) -> None:
        if self._connection is not None:
            if broken:
                # Replies may still be on the wire: the connection can't be reused.
                self._connection.disconnect()
            self._pool.release(self._connection)
        self._connection = None
        self._chunks, self._buffered, self._queued = [], 0, 0


# The key's place in a packed command shape: a byte no key of ours contains.
_KEY = "\0"
_KEY_BULK = b"$1\r\n\0\r\n"
