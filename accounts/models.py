"""The logged-in user as sessions see them: Django's user, whose session hash also
depends on the user's session generation, so that ending all their sessions is one
counter bumped in their Redis profile (accounts.services.end_sessions), not a scan of
every session. No table of its own: a proxy of Django's User."""

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.crypto import salted_hmac

GENERATION_SALT = "accounts.models.SessionUser.session_generation"


def fold_generation(plain_hash: str, generation: int, secret: str | None = None) -> str:
    """Django's session hash of a user, made specific to one session generation.
    Generation 0 (the user never ended their sessions) is Django's own hash, so sessions
    made before generations existed stay valid."""
    if not generation:
        return plain_hash
    return salted_hmac(
        GENERATION_SALT, f"{plain_hash}:{generation}", secret=secret, algorithm="sha256"
    ).hexdigest()


class SessionUser(User):
    """What accounts.backends.CachedUserBackend returns: `uid`, and `session_generation`
    and `session_fields` as read from Redis on this request, never from the cache."""

    uid: int | None = None
    session_generation = 0
    # The profile fields other apps asked to read with the session (accounts.services
    # read_with_session), as read on this request.
    session_fields: dict = {}

    class Meta:
        proxy = True

    def get_session_auth_hash(self) -> str:
        return fold_generation(super().get_session_auth_hash(), self.session_generation)

    def get_session_auth_fallback_hash(self):
        plain_hashes = super().get_session_auth_fallback_hash()
        for secret, plain in zip(settings.SECRET_KEY_FALLBACKS, plain_hashes, strict=True):
            yield fold_generation(plain, self.session_generation, secret)


def session_auth_hash(user: User, generation: int) -> str:
    """The hash a session of `user` keeps when made in session `generation`."""
    session_user = SessionUser(pk=user.pk, password=user.password)
    session_user.session_generation = generation
    return session_user.get_session_auth_hash()
