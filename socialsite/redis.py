"""The one way in to Redis: every other module asks here for a client."""

import asyncio
import itertools
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast
from urllib.parse import unquote

import hiredis
import redis
import redis.asyncio
from django.conf import settings
from django.core.cache import caches
from django.core.signals import setting_changed
from django.dispatch import receiver
from django_redis.cache import RedisCache as DjangoRedisCache
from django_redis.client import DefaultClient
from django_redis.pool import ConnectionFactory as DjangoRedisConnectionFactory
from redis.crc import key_slot

if TYPE_CHECKING:
    from redis.event import EventDispatcherInterface

# A client of the site's Redis (one server or a cluster) as the code sees it. redis-py 8
# types every reply `bytes | str` (a cluster's a union of shapes) whatever
# `decode_responses` says, and the site's clients always decode: a reply is typed where
# a decoder turns it into a record (decode_status, decode_user...), not by redis-py.
Client: TypeAlias = Any
# What a queue_* function queues its commands on: a redis-py pipeline (of either client)
# or a PackedPipeline, typed as Client is, for the same reason.
Pipe: TypeAlias = Any

# REDIS_URL with one of these schemes names a Redis Cluster by some of its nodes (seeds):
# redis+cluster://[user:password@]host:port[,host:port...]; the client learns the rest.
CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}


def cluster_options(url: str) -> dict | None:
    """RedisCluster's arguments for a cluster URL (startup nodes, credentials, TLS), or
    None if `url` names one server. Raises ValueError for a cluster URL with no node."""
    scheme, _, rest = url.partition("://")
    if scheme not in CLUSTER_SCHEMES:
        return None
    netloc = rest.split("/", 1)[0]
    credentials, _, hosts = netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    seeds = []
    for seed in filter(None, hosts.split(",")):
        host, _, port = seed.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"REDIS_URL: {seed!r} is not host:port")
        seeds.append((host.strip("[]"), int(port)))
    if not seeds:
        raise ValueError("REDIS_URL: a cluster URL names at least one host:port")
    options = {"seeds": seeds, "ssl": CLUSTER_SCHEMES[scheme]}
    if username:
        options["username"] = unquote(username)
    if password:
        options["password"] = unquote(password)
    return options


def connect_cluster(url: str, **kwargs) -> redis.RedisCluster:
    """A RedisCluster client for a cluster URL; `kwargs` go to every node's connections."""
    options = cluster_options(url)
    if options is None:
        raise ValueError(f"{url!r} doesn't name a Redis Cluster.")
    seeds = [redis.cluster.ClusterNode(host, port) for host, port in options.pop("seeds")]
    return redis.RedisCluster(startup_nodes=seeds, **options, **kwargs)


class ConnectionFactory(DjangoRedisConnectionFactory):
    """One connection pool per URL *and* pool options, and a RedisCluster client for a
    cluster URL (see CLUSTER_SCHEMES).

    django-redis keys its pools by URL alone, so whichever cache alias connected first
    imposed its options on the other: sessions ("default", pickled bytes) would get the
    "data" pool's decode_responses, or the services bytes instead of str."""

    # As django-redis's pools: process-wide, as it makes a factory per cache client.
    _clusters: dict[tuple, redis.RedisCluster] = {}

    def _key(self, url: str) -> tuple:
        return (url, repr(sorted(self.pool_cls_kwargs.items())))

    def connect(self, url: str) -> redis.Redis | redis.RedisCluster:
        if cluster_options(url) is None:
            return super().connect(url)
        key = self._key(url)
        if key not in self._clusters:
            params = self.make_connection_params(url)
            del params["url"]
            self._clusters[key] = connect_cluster(url, **params, **self.pool_cls_kwargs)
        return self._clusters[key]

    def disconnect(self, connection: redis.Redis | redis.RedisCluster) -> None:
        if isinstance(connection, redis.RedisCluster):
            connection.disconnect_connection_pools()
        else:
            super().disconnect(connection)

    def get_or_create_connection_pool(self, params: dict) -> redis.ConnectionPool:
        key = self._key(params["url"])
        if key not in self._pools:
            self._pools[key] = self.get_connection_pool(params)
        return self._pools[key]


class RedisCache(DjangoRedisCache):
    """django-redis's cache, with one client per cache configuration in each process.

    Django makes its cache objects per context, and under ASGI every request has one of
    its own (a ThreadSensitiveContext): django-redis then made a client and a redis-py
    client for each, ~0.2 ms apiece (redis-py copies its reply callbacks), twice a page
    (the session's cache and the data's). Both are thread-safe; the pools were already
    process-wide (ConnectionFactory)."""

    _clients: dict[str, DefaultClient] = {}
    _client: DefaultClient | None

    @property
    def client(self) -> DefaultClient:
        if self._client is None:
            # Settings changed (a test's own server) make another configuration.
            key = repr((self._server, self._params))
            client = self._clients.get(key)
            if client is None:
                client = self._clients.setdefault(
                    key, self._client_cls(self._server, self._params, self)
                )
            self._client = client
        return self._client


# The caches shared_cache made, by alias.
_shared_caches: dict[str, RedisCache] = {}


def shared_cache(alias: str) -> RedisCache:
    """The cache `alias` as one object for the whole process (see RedisCache): Django's
    `caches[alias]` makes one per context, which costs every request ~40 µs a cache
    under ASGI. Made again when the CACHES setting changes (a test's own server)."""
    cache = _shared_caches.get(alias)
    if cache is None:
        # CACHES names this module's RedisCache for every alias asked for here.
        made = cast(RedisCache, caches.create_connection(alias))
        cache = _shared_caches.setdefault(alias, made)
    return cache


@receiver(setting_changed)
def _forget_shared_caches(*, setting: str, **kwargs) -> None:
    if setting == "CACHES":
        _shared_caches.clear()


def get_redis() -> Client:
    """The shared, pooled sync client for the social network's data (replies decoded to
    str): a RedisCluster if REDIS_URL names a cluster."""
    return shared_cache("data").client.get_client(write=True)


AsyncClient = redis.asyncio.Redis | redis.asyncio.RedisCluster
_async_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncClient]" = (
    weakref.WeakKeyDictionary()
)


def get_async_redis() -> AsyncClient:
    """An asyncio client for the running event loop (asyncio clients can't cross loops)."""
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        client = _async_clients[loop] = connect_async(settings.REDIS_URL)
    return client


async def get_async_pubsub() -> redis.asyncio.client.PubSub:
    """A PubSub of the running loop's client. A cluster's subscribes on one node (a classic
    PUBLISH reaches every node), which its client must know first: it learns the slots on
    its first command, and SUBSCRIBE isn't one that teaches it."""
    client = get_async_redis()
    if isinstance(client, redis.asyncio.RedisCluster):
        await client.initialize()
    return client.pubsub()


def connect_async(url: str) -> AsyncClient:
    """A new asyncio client (replies decoded) for `url`, one server's or a cluster's."""
    options = cluster_options(url)
    if options is None:
        return redis.asyncio.Redis.from_url(url, decode_responses=True)
    seeds = [redis.asyncio.cluster.ClusterNode(host, port) for host, port in options.pop("seeds")]
    return redis.asyncio.RedisCluster(startup_nodes=seeds, **options, decode_responses=True)


def key_count(client: redis.Redis | redis.RedisCluster) -> int:
    """How many keys the configured Redis holds, on every primary of a cluster (a
    cluster client's DBSIZE asks one node)."""
    return sum(server.dbsize() for server in for_each_primary(client))


def for_each_primary(client: redis.Redis | redis.RedisCluster) -> list[redis.Redis]:
    """A client for each server that holds data: each primary of a cluster, else `client`
    (for what one server answers for itself: FLUSHDB, INFO, DBSIZE)."""
    if not isinstance(client, redis.RedisCluster):
        return [client]
    return [client.get_redis_connection(node) for node in client.get_primaries()]


# Errors of a cluster whose slots are changing hands (a failover, a resharding): the
# client has learnt the new map when it raises them, so the same request soon succeeds.
# redis-py raises its own classes; a PackedPipeline, the reply's text.
CLUSTER_MOVING = ("MOVED ", "ASK ", "TRYAGAIN ", "CLUSTERDOWN ")
CLUSTER_MOVING_ERRORS = (
    redis.exceptions.AskError,  # and MovedError
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterError,  # and ClusterDownError; redirections that ran out
)


def scan_batches(client, pattern: str, kind: str, batch: int = 1000):
    """The names of the keys of type `kind` matching `pattern` (a SCAN of every primary),
    in lists of up to `batch`: the walk of an upgrade or a check."""
    found = client.scan_iter(match=pattern, count=batch, _type=kind)
    while names := list(itertools.islice(found, batch)):
        yield names


def sorted_sets_over(client, pattern: str, size: int, batch: int = 1000):
    """The names of the sorted sets matching `pattern` with more than `size` members (a
    ZCARD a key, `batch` at a time): the sets an upgrade cuts."""
    for names in scan_batches(client, pattern, "ZSET", batch):
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.zcard(name)
        yield from (name for name, card in zip(names, pipe.execute(), strict=True) if card > size)


def is_redis_unavailable(error: BaseException | None) -> bool:
    """True for the errors that mean Redis can't serve the request right now: the server
    can't be reached, or a cluster's slots are moving."""
    from django_redis.exceptions import ConnectionInterrupted

    unreachable = (
        redis.ConnectionError,
        redis.TimeoutError,
        ConnectionInterrupted,
        *CLUSTER_MOVING_ERRORS,
    )
    while error is not None:
        if isinstance(error, unreachable) or (
            isinstance(error, redis.ResponseError) and str(error).startswith(CLUSTER_MOVING)
        ):
            return True
        error = error.__cause__ or error.__context__
    return False


class PackedPipeline(redis.commands.CoreCommands):
    """A pipeline for bulk work: commands are packed as they are queued and sent in one
    round trip, and the replies are read in bulk, raw, with no per-command parsing (as
    the server sent them, decoded to str if the client decodes; redis-py 8 speaks RESP3
    on the wire, so a hash is a dict, a set a list, a score a float).

    A fan-out pass is thousands of commands; on a redis-py pipeline the client's work per
    command costs several times what Redis spends running it (see `make bench`); a page
    of 30 statuses read here costs about half. Queue any command by its redis-py method;
    `for_each_key` packs one command shape for many keys at the cost of a string join.

    Given a RedisCluster client, commands are grouped by the node that serves their
    key's slot: each node gets its share in one round trip (all at once), and the
    replies come back in the order the commands were queued. A slot that moves while
    the pipeline runs (resharding) makes its commands fail with MOVED, raised here:
    the callers' steps are idempotent and are redone."""

    # A full buffer goes out while the rest is packed, so Redis works as we pack.
    FLUSH_BYTES = 64 * 1024
    # redis-py types its command methods for its own clients: a synchronous one (this
    # marker picks those overloads) with an event dispatcher (declared, never used here).
    _is_async_client: Literal[False] = False
    _event_dispatcher: "EventDispatcherInterface"

    def __init__(self, client: Client) -> None:
        self._nodes: dict[str | None, NodeShare] = {}
        self._queued = 0
        self._cluster = client if isinstance(client, redis.RedisCluster) else None
        self._pool: redis.ConnectionPool | None = None if self._cluster else client.connection_pool

    def execute_command(self, *args, **options) -> None:
        slot = self._cluster.determine_slot(*args) if self._cluster else None
        self._queue(self._share(slot), hiredis.pack_command(args), 1)

    def for_each_key(self, keys: Iterable[str], *commands: tuple) -> None:
        """Queues each of `commands` (a name, then the arguments after the key) for every key."""
        shapes = [
            hiredis.pack_command((name, _KEY, *args)).split(_KEY_BULK, 1)
            for name, *args in commands
        ]
        if self._cluster is None:
            keys = list(keys)
            self._queue(self._share(None), _pack(keys, shapes), len(keys) * len(shapes))
            return
        # Each node's keys in one string, each key's replies still in their place.
        by_node: dict[NodeShare, list[tuple[int, str]]] = {}
        # The slot from its CRC directly and each slot's node looked up once: redis-py's
        # keyslot() and get_node_from_slot() per key cost a fan-out worker more CPU than
        # Redis spends delivering (see make bench's scale rows).
        by_slot: dict[int, NodeShare] = {}
        for place, key in enumerate(keys):
            slot = key_slot(key.encode())
            share = by_slot.get(slot) or by_slot.setdefault(slot, self._share(slot))
            by_node.setdefault(share, []).append((place, key))
        first, per_key = self._queued, len(shapes)
        for share, placed in by_node.items():
            places = [(first + place * per_key, per_key) for place, _ in placed]
            share.add(_pack([key for _, key in placed], shapes), places)
            self._flush_if_full(share)
        self._queued = first + sum(map(len, by_node.values())) * per_key

    def execute_repeating(self, command: tuple, shape: tuple, values) -> list[str]:
        """Queues ONE command: `command` (its name, then its one key), then `shape` and a
        value for each of `values` (BITFIELD_RO key GET u1 7 GET u1 9 ...), packed with a
        join per length of value (hiredis packs a fan-out job's 30,000 such arguments
        several times slower). The values go grouped by length: returns them in the order
        sent, which the command's reply follows."""
        by_length: dict[int, list[str]] = {}
        for value in map(str, values):
            by_length.setdefault(len(value), []).append(value)
        total = len(command) + sum(map(len, by_length.values())) * (len(shape) + 1)
        packed = [b"*%d\r\n" % total + hiredis.pack_command(command).split(b"\r\n", 1)[1]]
        between = hiredis.pack_command(shape).split(b"\r\n", 1)[1].decode()
        for length, group in by_length.items():
            lead = f"{between}${length}\r\n"
            packed.append((lead + f"\r\n{lead}".join(group) + "\r\n").encode())
        slot = key_slot(command[1].encode()) if self._cluster else None
        self._queue(self._share(slot), b"".join(packed), 1)
        return [value for group in by_length.values() for value in group]

    def _share(self, slot: int | None) -> "NodeShare":
        if self._cluster is None:
            name, pool = None, self._pool
            # Without a cluster, __init__ took its client's pool.
            assert pool is not None
        else:
            # A cluster's commands all have a key, so a slot.
            assert slot is not None
            node = self._cluster.nodes_manager.get_node_from_slot(slot)
            name, pool = node.name, self._cluster.get_redis_connection(node).connection_pool
        share = self._nodes.get(name)
        if share is None:
            share = self._nodes[name] = NodeShare(pool)
        return share

    def _queue(self, share: "NodeShare", packed: bytes, count: int) -> None:
        """`packed` holds `count` commands, whose replies take the next places."""
        share.add(packed, [(self._queued, count)])
        self._queued += count
        self._flush_if_full(share)

    def _flush_if_full(self, share: "NodeShare") -> None:
        if share.buffered >= self.FLUSH_BYTES:
            self._guarded(share.flush)

    def _guarded(self, step):
        try:
            return step()
        except BaseException:
            self._release(broken=True)
            raise

    def send(self) -> None:
        """Sends what is queued so far, so that Redis runs it while more is queued; the
        replies are read by execute()."""
        for share in self._nodes.values():
            self._guarded(share.flush)

    def execute(self) -> list:
        """Sends what is left and reads every reply; raises the first error reply, if any,
        once all are read (as a redis-py pipeline does). Returns the raw replies."""
        if not self._queued:
            return []
        shares = list(self._nodes.values())
        for share in shares:
            self._guarded(share.flush)
        got = [self._guarded(share.read) for share in shares]
        if len(shares) == 1:
            replies = got[0]
        else:
            replies = [None] * self._queued
            for share, theirs in zip(shares, got, strict=True):
                done = 0
                for start, count in share.places:
                    replies[start : start + count] = theirs[done : done + count]
                    done += count
        self._release(broken=False)
        for reply in replies:
            if isinstance(reply, hiredis.ReplyError):
                if self._cluster and str(reply).startswith(("MOVED", "ASK")):
                    # Slots moved: the next pipeline (the step redone) asks the new map.
                    self._cluster.nodes_manager.initialize()
                raise redis.ResponseError(str(reply))
        return replies

    def __del__(self) -> None:
        # Dropped after a flush but before execute() (an error while queueing): the
        # replies left on the wire make the connection useless, but not lost to the pool.
        self._release(broken=True)

    def _release(self, *, broken: bool) -> None:
        for share in self._nodes.values():
            share.release(broken=broken)
        self._nodes.clear()
        self._queued = 0


class NodeShare:
    """What a PackedPipeline has for one server: the packed commands not sent yet, the
    connection they go out on, and the places (start, count) of their replies."""

    def __init__(self, pool: redis.ConnectionPool) -> None:
        self.pool = pool
        decode = pool.connection_kwargs.get("decode_responses")
        self.encoding = pool.connection_kwargs.get("encoding", "utf-8") if decode else None
        self.connection: redis.Connection | None = None
        self.chunks: list[bytes] = []
        self.buffered = 0
        self.places: list[tuple[int, int]] = []

    def add(self, packed: bytes, places: list[tuple[int, int]]) -> None:
        self.chunks.append(packed)
        self.buffered += len(packed)
        self.places += places

    def flush(self) -> None:
        if not self.chunks:
            return
        if self.connection is None:
            self.connection = self.pool.get_connection()
        self.connection.send_packed_command([b"".join(self.chunks)])
        self.chunks, self.buffered = [], 0

    def read(self) -> list:
        # Our own reader on the connection's socket: nothing else is in flight on it, and
        # redis-py's per-reply path is what PackedPipeline exists to avoid.
        count = sum(count for _, count in self.places)
        reader = hiredis.Reader(encoding=self.encoding)
        # Flushed before it is read, so connected.
        assert self.connection is not None
        sock = self.connection._sock
        assert sock is not None
        replies: list = []
        while len(replies) < count:
            try:
                data = sock.recv(1 << 16)
            except TimeoutError as error:
                # As redis-py raises them, so callers (and the 503 page) know them.
                raise redis.TimeoutError("Timeout reading from Redis") from error
            except OSError as error:
                raise redis.ConnectionError(f"Error reading from Redis: {error}") from error
            if not data:
                raise redis.ConnectionError("Redis closed the connection mid-pipeline")
            reader.feed(data)
            while (reply := reader.gets()) is not False:
                replies.append(reply)
        return replies

    def release(self, *, broken: bool) -> None:
        if self.connection is not None:
            if broken:
                # Replies may still be on the wire: the connection can't be reused.
                self.connection.disconnect()
            self.pool.release(self.connection)
        self.connection = None
        self.chunks, self.buffered, self.places = [], 0, []


def as_text(reply):
    """A raw reply of a client that doesn't decode (bytes, and lists and maps of them),
    as the same reply from one that does (str)."""
    if isinstance(reply, bytes):
        return reply.decode()
    if isinstance(reply, list):
        return [as_text(item) for item in reply]
    if isinstance(reply, dict):
        return {as_text(key): as_text(value) for key, value in reply.items()}
    return reply


def _pack(keys: list[str], shapes: list[list[bytes]]) -> bytes:
    """Each command shape (its packed head and tail around the key) for every key."""
    bulks = [b"$%d\r\n%s\r\n" % (len(key), key) for key in map(str.encode, keys)]
    if len(shapes) == 1 and bulks:
        # One shape (a fan-out's ZADD): joined in C, each key between a tail and a head.
        ((head, tail),) = shapes
        return head + (tail + head).join(bulks) + tail
    return b"".join(head + bulk + tail for bulk in bulks for head, tail in shapes)


# The key's place in a packed command shape: a byte no key of ours contains.
_KEY = "\0"
_KEY_BULK = b"$1\r\n\0\r\n"
