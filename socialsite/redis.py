"""The one way in to Redis: every other module asks here for a client."""

import asyncio
import itertools
import re
import weakref
from collections.abc import Iterator
from typing import Any, TypeAlias, cast
from urllib.parse import unquote

import redis
import redis.asyncio
from django.conf import settings
from django.core.cache import caches
from django.core.signals import setting_changed
from django.dispatch import receiver
from django_redis.cache import RedisCache as DjangoRedisCache
from django_redis.client import DefaultClient
from django_redis.pool import ConnectionFactory as DjangoRedisConnectionFactory

# The batches of commands whose replies are read by name, offered here too: this module
# is where every other one asks for Redis.
from .batches import (  # noqa: F401
    Batch,
    NodeShare,
    PackedPipeline,
    Reply,
    ReplyNotRead,
)

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


def connect_cluster(url: str, **kwargs: Any) -> redis.RedisCluster:
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
def _forget_shared_caches(*, setting: str, **kwargs: Any) -> None:
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
CLUSTER_MOVING_ERRORS = (
    redis.exceptions.AskError,  # and MovedError
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterError,  # and ClusterDownError; redirections that ran out
)


def scan_batches(client: Client, pattern: str, kind: str, batch: int = 1000) -> Iterator[list[str]]:
    """The names of the keys of type `kind` matching `pattern` (a SCAN of every primary),
    in lists of up to `batch`: the walk of an upgrade or a check."""
    found = client.scan_iter(match=pattern, count=batch, _type=kind)
    while names := list(itertools.islice(found, batch)):
        yield names


def sorted_sets_over(client: Client, pattern: str, size: int, batch: int = 1000) -> Iterator[str]:
    """The names of the sorted sets matching `pattern` with more than `size` members (a
    ZCARD a key, `batch` at a time): the sets an upgrade cuts."""
    for names in scan_batches(client, pattern, "ZSET", batch):
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.zcard(name)
        yield from (name for name, card in zip(names, pipe.execute(), strict=True) if card > size)


# Error replies of a server that can't serve the request now but soon will: loading its
# data (LOADING, after a restart), busy with a long script (BUSY), a replica cut off
# from its primary (MASTERDOWN), a primary turned replica by a failover (READONLY), a
# cluster without every slot served or with slots changing hands. Matched at the start
# of the text, or after the "Command # n (...) of pipeline caused error: " a redis-py
# pipeline puts before the replies it has no class for (BUSY).
UNAVAILABLE_REPLY = re.compile(
    r"(?:^|caused error: )(?:LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|MOVED|ASK) "
)
UNAVAILABLE_ERRORS = (
    redis.ConnectionError,  # and BusyLoadingError (LOADING)
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    *CLUSTER_MOVING_ERRORS,  # and MasterDownError
)


def is_redis_unavailable(error: BaseException | None) -> bool:
    """True for the errors that mean Redis can't serve the request right now (a 503, not
    a 500): the server can't be reached, is loading its data or busy, or a cluster's
    slots are moving or unserved; for `error` or any error it was raised from."""
    from django_redis.exceptions import ConnectionInterrupted

    while error is not None:
        if isinstance(error, (*UNAVAILABLE_ERRORS, ConnectionInterrupted)) or (
            isinstance(error, redis.ResponseError) and UNAVAILABLE_REPLY.search(str(error))
        ):
            return True
        error = error.__cause__ or error.__context__
    return False
