"""Sessions in Redis through the cache, where an unreachable Redis is an error.

Django's cache session store reads any cache error as "no session": during a Redis
outage every visitor would look logged out and have their session cookie deleted.
Raising instead lets the request end in the 503 page, and the session survives."""

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.cache import SessionStore as CacheSessionStore

from .redis import is_redis_unavailable, shared_cache


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
        if data is None:
            self._session_key = None
            return {}
        return data
