"""Django's model backend, with the logged-in user read from the cache (Redis) rather
than the database on every request.

Under ASGI each request runs in a thread of its own, so reading the user opened a new
database connection per request: ~1 ms of a page's ~10 in daphne, more than any
Redis read the page makes. The session already costs a Redis read; the user is a
second, ~0.1 ms.

The user's session generation (accounts.models) is read from their Redis profile on
every request, never cached: a user cached before "log out everywhere" can't keep an
ended session alive, and a session ended by a password change stays ended even if a
request racing the change cached the old row. One more read, ~0.1 ms."""

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from . import services
from .models import SessionUser

# How long a cached user may live. Saves and deletes forget it at once; this bounds
# what nothing tells us about: QuerySet.update() (no signals), or a read racing a save.
USER_CACHE_SECONDS = 300


def user_cache_key(user_id) -> str:
    return f"auth-user:{user_id}"


class CachedUserBackend(ModelBackend):
    def get_user(self, user_id) -> SessionUser | None:
        """As ModelBackend's (None for an unknown or inactive user), from the cache, with
        the user's current session generation. Django checks the session's hash against
        the user's, which depends on both the password and the generation."""
        key = user_cache_key(user_id)
        user = cache.get(key)
        # Anything else is what an older version of this backend cached.
        if not isinstance(user, SessionUser):
            try:
                user = SessionUser._default_manager.get(pk=user_id)
            except SessionUser.DoesNotExist:
                return None
            if not self.user_can_authenticate(user):
                return None
            user.uid = services.uid_for_login(user.username)
            cache.set(key, user, USER_CACHE_SECONDS)
        if user.uid is not None:
            user.session_generation, user.session_fields = services.session_state(user.uid)
        return user


# Saving or deleting request.user (a SessionUser) sends the signals with SessionUser.
@receiver(post_save, sender=User)
@receiver(post_delete, sender=User)
@receiver(post_save, sender=SessionUser)
@receiver(post_delete, sender=SessionUser)
def forget_cached_user(sender, instance: User, using: str, **kwargs) -> None:
    """At once, for this process's next read; and, inside a transaction, again on
    commit: a request reading the user between the save and the commit would cache
    the old row."""
    key = user_cache_key(instance.pk)
    cache.delete(key)
    if transaction.get_connection(using).in_atomic_block:
        transaction.on_commit(lambda: cache.delete(key), using=using)
