"""Sessions in Redis through the cache, where an unreachable Redis is an error.

Django's cache session store reads any cache error as "no session": during a Redis
outage every visitor would look logged out and have their session cookie deleted.
Raising instead lets the request end in the 503 page, and the session survives.

A session can also be read in one round trip with other commands (load_with): the
signed-in user's, see accounts.backends.session_user."""

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.cache import SessionStore as CacheSessionStore

from .redis import PackedPipeline, is_redis_unavailable, shared_cache

T = TypeVar("T")


class SessionStore(CacheSessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        # As Django's, whose caches[alias] is made anew for every request under ASGI.
        self._cache = shared_cache(settings.SESSION_CACHE_ALIAS)
        SessionBase.__init__(self, session_key)

    def load(self) -> dict:
        """As Django's, except that an unreachable Redis raises."""
        try:
            data = self._cache.get(self.cache_key)
        except Exception as error:
            if is_redis_unavailable(error):
                raise
            data = None
        return self._loaded(data)

    def load_with(self, queue: Callable[[PackedPipeline], T]) -> T | None:
        """Reads the session, as its first use would, in one round trip with the commands
        `queue(pipeline)` adds to a PackedPipeline of the cache's client (so their replies
        are raw bytes); returns what `queue` returned (its handles, filled). None, and
        nothing read, if the session was read already or has no key; None if any reply
        is an error (the session is then read on its first use, as usual)."""
        if self.session_key is None or hasattr(self, "_session_cache"):
            return None
        client = self._cache.client
        pipe = PackedPipeline(client.get_client(write=False))
        raw = pipe.get(client.make_key(self.cache_key))
        reads = queue(pipe)
        try:
            pipe.execute()
            data = None if raw.value is None else client.decode(raw.value)
        except Exception as error:
            if is_redis_unavailable(error):
                raise
            return None
        self.accessed = True
        self._session_cache = self._loaded(data)
        return reads

    def _loaded(self, data: dict | None) -> dict:
        """The session's data as read (None: there is no such session, or no longer)."""
        if data is None:
            self._session_key = None
            return {}
        return data
