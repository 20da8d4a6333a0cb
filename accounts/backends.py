"""Django's model backend, with the logged-in user read from the cache (Redis) rather
than the database on every request.

Under ASGI each request runs in a thread of its own, so reading the user opened a new
database connection per request: ~1 ms of a page's ~10 in daphne, more than any
Redis read the page makes. The session already costs a Redis read; the user is a
second, ~0.1 ms.

The user's session generation (accounts.models) is read from their Redis profile on
every request, never cached: a user cached before "log out everywhere" can't keep an
ended session alive, and a session ended by a password change stays ended even if a
request racing the change cached the old row. It is read in the same round trip as the
cached user where this process has seen the user before (it knows their uid), and the
uid is checked against the user read. Where this process has seen the session signed in
(KNOWN_SESSIONS), the session itself is read in that round trip too (session_user, which
accounts.middleware has Django's authentication middleware use)."""

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from django.contrib import auth
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest

from socialsite.kept import keep
from socialsite.redis import PackedPipeline, Pipe, Reply, shared_cache
from socialsite.sessions import SessionStore

from . import services
from .models import SessionUser

# How long a cached user may live. Saves and deletes forget it at once; this bounds
# what nothing tells us about: QuerySet.update() (no signals), or a read racing a save.
USER_CACHE_SECONDS = 300


def user_cache_key(user_id: int | str) -> str:
    return f"auth-user:{user_id}"


# The uid of each Django user (by id) this process has read: their profile (session
# state) is then read with the cached user, in one round trip. Forgotten all at once
# when full; a stale uid (a deleted user's id reused) is caught by the check in get_user.
KNOWN_UIDS: dict[str, int] = {}
KNOWN_UIDS_KEPT = 100_000


T = TypeVar("T")
# A user's session generation and SESSION_FIELDS (services.session_state).
SessionState = tuple[int, dict[str, str | None]]


@dataclass(frozen=True, slots=True)
class UserAndStateRead:
    """The reads `queue_user_and_state` queued: the cached user and the session state."""

    user: Reply
    state: Reply

    @property
    def decoded(self) -> tuple[object, SessionState]:
        """The cached user (None if not cached) and the session state."""
        raw = self.user.value
        user = None if raw is None else shared_cache("default").client.decode(raw)
        return user, services.decode_session_state(self.state.value)


def queue_user_and_state(pipe: Pipe, user_id: int | str, uid: int) -> UserAndStateRead:
    """Queues the cached user `user_id` and `uid`'s session state on `pipe`, a
    PackedPipeline of the cache's client."""
    return UserAndStateRead(
        pipe.get(shared_cache("default").client.make_key(user_cache_key(user_id))),
        services.queue_session_state(pipe, uid),
    )


def cached_user_and_state(
    user_id: int | str, uid: int, queue: Callable[[PackedPipeline], T]
) -> tuple[object, SessionState, T]:
    """The cached user (None if not cached), `uid`'s session state and what `queue(pipe)`
    returned (its reads on the cache's client, filled): one round trip."""
    pipe = PackedPipeline(shared_cache("default").client.get_client(write=False))
    read = queue_user_and_state(pipe, user_id, uid)
    reads = queue(pipe)
    pipe.execute()
    return (*read.decoded, reads)


# Each session this process has seen signed in: session key -> (user id, uid). Such a
# session is read in one round trip with its user and their session state (see
# session_user). Forgotten all at once when full; a wrong guess (the session ended, or
# of another user) costs only the replies not used, and is forgotten.
KNOWN_SESSIONS: dict[str, tuple[str, int]] = {}
KNOWN_SESSIONS_KEPT = 100_000

# What session_user read with the session, for get_user within the same call:
# (user id, uid, cached user, session state).
_read_with_session: ContextVar[tuple[str, int, object, SessionState] | None] = ContextVar(
    "read_with_session", default=None
)


@dataclass(frozen=True, slots=True)
class UserReads(Generic[T]):
    """A page's first reads (`reads`: what its queue function returned, filled, replies
    as str), made on the round trip that read the session of signed-in user `uid`."""

    uid: int
    reads: T


def session_user(request: HttpRequest) -> User | AnonymousUser:
    """Django's auth.get_user(request): the session's user if the session's hash still
    holds, else a visitor. Where this process has seen the session signed in, the
    session, its user and their session state are read in one round trip, not two: all
    as of the same moment, so an ended session is as ended as before."""
    return _session_user(request, None)[0]


def _session_user(
    request: HttpRequest, also: Callable[[PackedPipeline, int], T] | None
) -> tuple[User | AnonymousUser, UserReads[T] | None]:
    """session_user's user, and the reads `also(pipe, uid)` queued on its round trip if
    it made one and the session proved to be that user's."""
    # SESSION_ENGINE is socialsite.sessions, whose store reads with others' reads.
    session = cast(SessionStore, request.session)
    key = session.session_key
    guess = KNOWN_SESSIONS.get(key) if key else None
    read = page_reads = None
    if guess is not None:
        user_id, uid = guess

        def queue(pipe: PackedPipeline) -> tuple[UserAndStateRead, T | None]:
            user_and_state = queue_user_and_state(pipe, user_id, uid)
            if also is None:
                return user_and_state, None
            # The page's reads are the data client's, which decodes.
            with pipe.as_text():
                return user_and_state, also(pipe, uid)

        queued = session.load_with(queue)
        if queued is not None:
            user_and_state, page_reads = queued
            read = (*guess, *user_and_state.decoded)
    token = _read_with_session.set(read)
    try:
        user = auth.get_user(request)
    finally:
        _read_with_session.reset(token)
    signed_in = getattr(user, "uid", None)
    if signed_in is not None and session.session_key:
        keep(KNOWN_SESSIONS, session.session_key, (str(user.pk), signed_in), KNOWN_SESSIONS_KEPT)
        # The page's reads were made only on a guess: theirs if it was this user.
        if page_reads is not None and guess is not None and signed_in == guess[1]:
            return user, UserReads(signed_in, page_reads)
    elif key and guess is not None:
        KNOWN_SESSIONS.pop(key, None)
    return user, None


def read_with_user(
    request: HttpRequest, queue: Callable[[PackedPipeline, int], T]
) -> UserReads[T] | None:
    """Has `queue(pipe, uid)` queue a page's first reads on the round trip that reads the
    session and its signed-in user (where this process has seen the session signed in,
    so knows the uid), and reads the user (request.user): the reads once the session
    proves to be that user's; None if they weren't read (a visitor, a session not seen
    signed in, ended or another's, the user read already): the page reads them itself.
    Read with the session check, they are as fresh as reads made after it."""
    if hasattr(request, "_cached_user"):
        return None
    user, reads = _session_user(request, queue)
    # What accounts.middleware's request.user reads once a request (Django's own
    # middleware keeps the user in this attribute; django-stubs doesn't declare it).
    request._cached_user = user  # type: ignore[attr-defined]
    return reads


def user_with(
    user_id: str, uid: int, queue: Callable[[PackedPipeline], T]
) -> tuple[SessionUser | None, T]:
    """CachedUserBackend().get_user(user_id) for a user this process has seen as `uid`,
    with the reads `queue(pipe)` queues on the cache's client in the same round trip:
    (the user, what `queue` returned, filled). A credential other than a session (an API
    token) is read with its user this way, as session_user reads a session."""
    user, state, reads = cached_user_and_state(user_id, uid, queue)
    token = _read_with_session.set((str(user_id), uid, user, state))
    try:
        return CachedUserBackend().get_user(user_id), reads
    finally:
        _read_with_session.reset(token)


class CachedUserBackend(ModelBackend):
    def get_user(self, user_id: Any) -> SessionUser | None:
        """As ModelBackend's (None for an unknown or inactive user), from the cache, with
        the user's current session generation. Django checks the session's hash against
        the user's, which depends on both the password and the generation."""
        key = user_cache_key(user_id)
        read = _read_with_session.get()
        guess: int | None
        state: SessionState | None
        if read is not None and read[0] == str(user_id):
            _, guess, user, state = read
        else:
            guess = KNOWN_UIDS.get(str(user_id))
            if guess is None:
                user, state = shared_cache("default").get(key), None
            else:
                user, state, _ = cached_user_and_state(user_id, guess, lambda pipe: None)
        # Anything else is what an older version of this backend cached.
        if not isinstance(user, SessionUser):
            try:
                user = SessionUser._default_manager.get(pk=user_id)
            except SessionUser.DoesNotExist:
                return None
            if not self.user_can_authenticate(user):
                return None
            user.uid = services.uid_for_login(user.username)
            shared_cache("default").set(key, user, USER_CACHE_SECONDS)
        if user.uid is not None:
            if state is None or guess != user.uid:
                state = services.session_state(user.uid)
                keep(KNOWN_UIDS, str(user_id), user.uid, KNOWN_UIDS_KEPT)
            user.session_generation, user.session_fields = state
        return user


# Saving or deleting request.user (a SessionUser) sends the signals with SessionUser.
@receiver(post_save, sender=User)
@receiver(post_delete, sender=User)
@receiver(post_save, sender=SessionUser)
@receiver(post_delete, sender=SessionUser)
def forget_cached_user(sender: type[User], instance: User, using: str, **kwargs: Any) -> None:
    """At once, for this process's next read; and, inside a transaction, again on
    commit: a request reading the user between the save and the commit would cache
    the old row."""
    key, cache = user_cache_key(instance.pk), shared_cache("default")
    cache.delete(key)
    if transaction.get_connection(using).in_atomic_block:
        transaction.on_commit(lambda: cache.delete(key), using=using)
