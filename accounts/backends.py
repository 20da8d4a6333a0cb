"""Django's model backend, with the logged-in user read from the cache (Redis) rather
than the database on every request.

Under ASGI each request runs in a thread of its own, so reading the user opened a new
database connection per request: ~1 ms of a page's ~10 in daphne, more than any
Redis read the page makes. The session already costs a Redis read; the user is a
second, ~0.1 ms."""

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

# How long a cached user may live. Saves and deletes forget it at once; this bounds
# what nothing tells us about: QuerySet.update() (no signals), or a read racing a save.
USER_CACHE_SECONDS = 300


def _key(user_id) -> str:
    return f"auth-user:{user_id}"


class CachedUserBackend(ModelBackend):
    def get_user(self, user_id) -> User | None:
        """As ModelBackend's (None for an unknown or inactive user), from the cache.
        Django still checks the session's password hash against the user's, so
        changing a password still logs out the user's other sessions."""
        key = _key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, USER_CACHE_SECONDS)
        return user


@receiver(post_save, sender=User)
@receiver(post_delete, sender=User)
def forget_cached_user(sender, instance: User, using: str, **kwargs) -> None:
    """At once, for this process's next read; and, inside a transaction, again on
    commit: a request reading the user between the save and the commit would cache
    the old row."""
    key = _key(instance.pk)
    cache.delete(key)
    if transaction.get_connection(using).in_atomic_block:
        transaction.on_commit(lambda: cache.delete(key), using=using)
