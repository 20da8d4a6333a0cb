"""The logged-in user's uid, kept in the session at login so that pages don't look it
up in Redis on every request."""

from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from . import services
from .models import session_auth_hash

SESSION_UID = "uid"


def remember_uid(request: HttpRequest, user: User) -> int:
    uid = request.session[SESSION_UID] = services.ensure_profile(user)
    return uid


def current_uid(request: HttpRequest) -> int | None:
    """The uid of the logged-in user, or None for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    # Sessions made before the uid was kept in them get it on first use.
    return request.session.get(SESSION_UID) or remember_uid(request, user)


def logged_in_uid(request: HttpRequest) -> int:
    """The uid of the logged-in user, for the views only they reach (login_required):
    PermissionDenied for a visitor."""
    uid = current_uid(request)
    if uid is None:
        raise PermissionDenied("Log in first.")
    return uid


def logged_in_user(request: HttpRequest) -> User:
    """The logged-in user, for the views only they reach (login_required):
    PermissionDenied for a visitor."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Log in first.")
    return user


def keep_session(request: HttpRequest, user: User, generation: int) -> None:
    """Makes this request's session one of `user`'s session `generation` (see
    accounts.models)."""
    request.session[HASH_SESSION_KEY] = session_auth_hash(user, generation)
