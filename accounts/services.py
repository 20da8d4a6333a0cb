"""User profiles in Redis. The Django user holds the password; this holds the rest."""

import re
import time

from django.contrib.auth.models import User
from django.db import transaction

from socialsite.redis import get_redis

from . import keys

LOGIN_PATTERN = re.compile(r"^[A-Za-z0-9_]{1,30}$")
NAME_MAX_LENGTH = 50
# Logins that would be confusing as /u/<login>/ or in @mentions.
RESERVED_LOGINS = frozenset(
    [
        "about",
        "account",
        "accounts",
        "admin",
        "administrator",
        "api",
        "anonymous",
        "help",
        "home",
        "login",
        "logout",
        "me",
        "mention",
        "mentions",
        "moderator",
        "null",
        "none",
        "root",
        "search",
        "settings",
        "signup",
        "static",
        "status",
        "statuses",
        "stream",
        "streaming",
        "support",
        "system",
        "timeline",
        "u",
        "user",
        "users",
        "www",
    ]
)
COUNTER_FIELDS = ("followers", "following", "posts")


class LoginTaken(ValueError):
    pass


def check_login(login: str, *, allow_reserved: bool = False) -> None:
    """Raises ValueError saying why `login` can't be a login."""
    if not LOGIN_PATTERN.match(login or ""):
        raise ValueError("Logins are 1 to 30 letters, digits or underscores.")
    if not allow_reserved and login.lower() in RESERVED_LOGINS:
        raise ValueError("That login is reserved.")


def create_user(login: str, name: str, *, allow_reserved: bool = False) -> int | None:
    """Creates the Redis profile for `login`; returns its uid, or None if the login is taken.

    Reserved logins are refused unless `allow_reserved` (operators' own accounts)."""
    check_login(login, allow_reserved=allow_reserved)
    conn = get_redis()
    uid = conn.incr(keys.USER_ID_COUNTER)
    # HSETNX claims the login atomically: of two concurrent signups one wins.
    if not conn.hsetnx(keys.LOGIN_INDEX, login.lower(), uid):
        return None
    try:
        pipe = conn.pipeline(transaction=False)
        pipe.hset(
            keys.user_key(uid),
            mapping={
                "id": uid,
                "login": login,
                "name": (name or login)[:NAME_MAX_LENGTH],
                "followers": 0,
                "following": 0,
                "posts": 0,
                "signup": time.time(),
            },
        )
        pipe.zadd(keys.LOGIN_SEARCH, {f"{login.lower()}:{uid}": 0})
        pipe.execute()
    except Exception:
        conn.hdel(keys.LOGIN_INDEX, login.lower())
        raise
    return uid


def _decode_user(data: dict) -> dict | None:
    if not data:
        return None
    user = dict(data)
    user["id"] = int(user["id"])
    for field in COUNTER_FIELDS:
        user[field] = int(user.get(field, 0))
    user["signup"] = float(user["signup"])
    user["suspended"] = user.get("suspended") == "1"
    return user


def get_user(uid: int) -> dict | None:
    """The profile of `uid`: login, name, followers, following, posts, signup (or None)."""
    return _decode_user(get_redis().hgetall(keys.user_key(uid)))


def get_users(uids: list[int]) -> list[dict]:
    """Profiles of `uids` in one round trip, in order, skipping unknown uids."""
    if not uids:
        return []
    pipe = get_redis().pipeline(transaction=False)
    for uid in uids:
        pipe.hgetall(keys.user_key(uid))
    return [user for user in map(_decode_user, pipe.execute()) if user]


def uid_for_login(login: str) -> int | None:
    uid = get_redis().hget(keys.LOGIN_INDEX, (login or "").lower())
    return int(uid) if uid else None


def get_user_by_login(login: str) -> dict | None:
    uid = uid_for_login(login)
    return get_user(uid) if uid else None


def update_name(uid: int, name: str) -> None:
    """Sets the display name (the only profile field a user edits)."""
    name = (name or "").strip()
    if not name:
        raise ValueError("The display name can't be blank.")
    if len(name) > NAME_MAX_LENGTH:
        raise ValueError(f"The display name is at most {NAME_MAX_LENGTH} characters.")
    get_redis().hset(keys.user_key(uid), "name", name)


def delete_profile(uid: int) -> None:
    """Removes a profile that has no statuses or follows yet (undoing a failed signup)."""
    conn = get_redis()
    login = conn.hget(keys.user_key(uid), "login")
    pipe = conn.pipeline(transaction=False)
    pipe.delete(keys.user_key(uid))
    if login:
        pipe.hdel(keys.LOGIN_INDEX, login.lower())
        pipe.zrem(keys.LOGIN_SEARCH, f"{login.lower()}:{uid}")
    pipe.execute()


def sign_up(login: str, password: str, name: str) -> User:
    """Creates the Django user and its Redis profile together, or neither."""
    uid = create_user(login, name)
    if uid is None:
        raise LoginTaken("That login is taken.")
    try:
        with transaction.atomic():
            return User.objects.create_user(username=login, password=password, first_name=name)
    except BaseException:
        delete_profile(uid)
        raise


def ensure_profile(user: User) -> int:
    """The uid of a Django user, creating the profile for users made outside sign_up."""
    uid = uid_for_login(user.username)
    if uid is None:
        uid = create_user(user.username, user.first_name or user.username, allow_reserved=True)
        if uid is None:
            raise LoginTaken(f"The login {user.username!r} is taken.")
    return uid
