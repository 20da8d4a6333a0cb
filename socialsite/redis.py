"""The one way in to Redis: every other module asks here for a client."""

import asyncio
import weakref

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
