"""User profiles in Redis. The Django user holds the password; this holds the rest."""

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.dispatch import Signal

from socialsite.redis import Client, PackedPipeline, Pipe, get_redis
from socialsite.text import check_display_text, folded

from . import authors, keys
from .records import UserProfile

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


class AccountSuspended(ValueError):
    """A suspended user tried to do something only active users may."""


def check_login(login: str, *, allow_reserved: bool = False) -> None:
    """Raises ValueError saying why `login` can't be a login."""
    if not LOGIN_PATTERN.match(login or ""):
        raise ValueError("Logins are 1 to 30 letters, digits or underscores.")
    if not allow_reserved and login.lower() in RESERVED_LOGINS:
        raise ValueError("That login is reserved.")


def create_user(login: str, name: str, *, allow_reserved: bool = False) -> int | None:
    """Creates the Redis profile for `login`; returns its uid, or None if the login is taken.

    Reserved logins are refused unless `allow_reserved` (operators' own accounts)."""
    return create_users([(login, name)], allow_reserved=allow_reserved)[0]


def create_users(
    profiles: list[tuple[str, str]], *, allow_reserved: bool = False
) -> list[int | None]:
    """Creates Redis profiles for (login, name) pairs in 3 round trips, whatever their number;
    returns each uid, or None where the login is taken. Any bad login or name refuses them
    all (ValueError), before anything is written."""
    for login, name in profiles:
        check_login(login, allow_reserved=allow_reserved)
        check_display_text(name or "")
    if not profiles:
        return []
    conn = get_redis()
    last = conn.incrby(keys.USER_ID_COUNTER, len(profiles))
    pipe = conn.pipeline(transaction=False)
    for offset, (login, _) in enumerate(profiles):
        # HSETNX claims the login atomically: of two concurrent signups one wins.
        pipe.hsetnx(keys.LOGIN_INDEX, login.lower(), last - len(profiles) + 1 + offset)
    uids = [
        last - len(profiles) + 1 + offset if claimed else None
        for offset, claimed in enumerate(pipe.execute())
    ]
    created = [(login, name, uid) for (login, name), uid in zip(profiles, uids, strict=True) if uid]
    try:
        now = time.time()
        for login, name, uid in created:
            pipe.hset(
                keys.user_key(uid),
                mapping={
                    "id": uid,
                    "login": login,
                    "name": (name or login)[:NAME_MAX_LENGTH],
                    "followers": 0,
                    "following": 0,
                    "posts": 0,
                    "signup": now,
                },
            )
            pipe.zadd(keys.LOGIN_SEARCH, {keys.login_search_entry(login, uid): 0})
            pipe.zadd(keys.NAME_SEARCH, dict.fromkeys(name_entries(uid, login, name or login), 0))
        pipe.execute()
    except Exception:
        pipe.reset()
        for login, _, _ in created:
            pipe.hdel(keys.LOGIN_INDEX, login.lower())
        pipe.execute()
        raise
    return uids


def decode_user(data: dict[str, str]) -> UserProfile | None:
    """A profile as read from its hash (None for no hash)."""
    if not data:
        return None
    user: dict[str, Any] = dict(data)
    user["id"] = int(user["id"])
    for field in COUNTER_FIELDS:
        user[field] = int(user.get(field, 0))
    user["signup"] = float(user["signup"])
    user["suspended"] = user.get("suspended") == "1"
    user["private"] = user.get("private") == "1"
    # The hash holds more than the record names (unread counts...): checked above.
    return cast(UserProfile, user)


def get_user(uid: int) -> UserProfile | None:
    """The profile of `uid`: login, name, followers, following, posts, signup (or None)."""
    return decode_user(get_redis().hgetall(keys.user_key(uid)))


def get_users(uids: list[int]) -> list[UserProfile]:
    """Profiles of `uids` in one round trip, in order, skipping unknown uids."""
    if not uids:
        return []
    pipe = get_redis().pipeline(transaction=False)
    for uid in uids:
        pipe.hgetall(keys.user_key(uid))
    return [user for user in map(decode_user, pipe.execute()) if user]


def uid_for_login(login: str) -> int | None:
    uid = get_redis().hget(keys.LOGIN_INDEX, (login or "").lower())
    return int(uid) if uid else None


def get_user_by_login(login: str) -> UserProfile | None:
    uid = uid_for_login(login)
    return get_user(uid) if uid else None


def check_name(name: str) -> str:
    """A display name to store, stripped, or ValueError saying what is wrong with it."""
    name = (name or "").strip()
    if not name:
        raise ValueError("The display name can't be blank.")
    if len(name) > NAME_MAX_LENGTH:
        raise ValueError(f"The display name is at most {NAME_MAX_LENGTH} characters.")
    check_display_text(name)
    return name


def update_name(uid: int, name: str) -> None:
    """Sets the display name; ValueError (nothing changes) for a bad one."""
    name = check_name(name)
    conn = get_redis()
    login, old = conn.hmget(keys.user_key(uid), "login", "name")
    if not login:
        raise ValueError("No such user.")
    pipe = conn.pipeline(transaction=False)
    pipe.hset(keys.user_key(uid), "name", name)
    pipe.zrem(keys.NAME_SEARCH, *name_entries(uid, login, old or login))
    pipe.zadd(keys.NAME_SEARCH, dict.fromkeys(name_entries(uid, login, name), 0))
    pipe.execute()
    authors.forget(uid)


# Words of a display name it is found by, besides its start ("Ada Lovelace": "lovelace").
NAME_WORDS_INDEXED = 4


def name_entries(uid: int, login: str, name: str) -> list[str]:
    """`uid`'s members of NAME_SEARCH: their login, their display name and its later
    words, each folded (no case, no accents) and followed by NUL and the uid."""
    name_words = folded(name).split()
    starts = [login.lower(), " ".join(name_words)]
    starts += [" ".join(name_words[i:]) for i in range(1, min(len(name_words), NAME_WORDS_INDEXED))]
    return [f"{start}\0{uid}" for start in dict.fromkeys(starts) if start]


# The profile field counting how many times the user ended all their sessions: a
# session's hash depends on it (accounts.models.SessionUser), so bumping it ends them all.
SESSION_GENERATION_FIELD = "session_generation"


# Profile fields other apps want on every signed-in request (the nav's unread counts),
# read in the same HMGET as the session generation: no round trip of their own. Each
# app names its fields once, at startup (AppConfig.ready).
SESSION_FIELDS: list[str] = []


def read_with_session(*fields: str) -> None:
    """Has every signed-in request read `fields` of the user's profile with its session."""
    SESSION_FIELDS.extend(field for field in fields if field not in SESSION_FIELDS)


def session_state(uid: int) -> tuple[int, dict[str, str | None]]:
    """`uid`'s session generation, and the SESSION_FIELDS of their profile: one HMGET."""
    return decode_session_state(queue_session_state(get_redis(), uid))


def queue_session_state(client: Client, uid: int) -> Any:
    """Queues (or runs) session_state's HMGET on `client` (of any client: see
    decode_session_state): its handle, or its reply."""
    return client.hmget(keys.user_key(uid), SESSION_GENERATION_FIELD, *SESSION_FIELDS)


def decode_session_state(reply: list[bytes | str | None]) -> tuple[int, dict[str, str | None]]:
    """session_state's result from queue_session_state's reply, str or bytes."""
    generation, *values = (v.decode() if isinstance(v, bytes) else v for v in reply)
    return int(generation or 0), dict(zip(SESSION_FIELDS, values, strict=True))


def session_generation(uid: int) -> int:
    """How many times `uid` ended all their sessions (0 if never)."""
    return int(get_redis().hget(keys.user_key(uid), SESSION_GENERATION_FIELD) or 0)


def end_sessions(uid: int) -> int:
    """Ends every session of `uid`, in every browser, at their next request; returns the
    new session generation, which a session that should go on (the one changing the
    password) is moved to."""
    return int(get_redis().hincrby(keys.user_key(uid), SESSION_GENERATION_FIELD, 1))


def change_password(uid: int, user: User, password: str) -> int:
    """Sets `user`'s (already validated) password and ends all their sessions; returns the
    new session generation, for the session that changed it to go on in."""
    user.set_password(password)
    user.save(update_fields=["password"])
    return end_sessions(uid)


def delete_profile(uid: int) -> None:
    """Removes a profile that has no statuses or follows yet (undoing a failed signup)."""
    conn = get_redis()
    login, name = conn.hmget(keys.user_key(uid), "login", "name")
    pipe = conn.pipeline(transaction=False)
    pipe.delete(keys.user_key(uid))
    if login:
        pipe.hdel(keys.LOGIN_INDEX, login.lower())
        pipe.zrem(keys.LOGIN_SEARCH, keys.login_search_entry(login, uid))
        pipe.zrem(keys.NAME_SEARCH, *name_entries(uid, login, name or login))
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


SEARCH_CURSOR = re.compile(r"^[a-z0-9_]{1,30}:[0-9]+$")


def search_users(prefix: str, *, after: str = "", count: int = 50) -> tuple[list[UserProfile], str]:
    """Profiles whose login starts with `prefix` (any case), in login order, `count` at a
    time from the cursor `after`; also the next page's cursor ("" after the last page)."""
    prefix = (prefix or "").strip().lower()
    if prefix and not LOGIN_PATTERN.match(prefix):
        raise ValueError("Logins are made of letters, digits and underscores only.")
    if after and not (SEARCH_CURSOR.match(after) and after.startswith(prefix)):
        raise ValueError("That page cursor is not valid for this search.")
    if count < 1:
        raise ValueError("Counts start at 1.")
    # Members are "login:uid"; logins are ASCII, so "\xff" sorts after every one.
    low = f"({after}" if after else f"[{prefix}"
    members = get_redis().zrangebylex(keys.LOGIN_SEARCH, low, f"[{prefix}\xff", 0, count + 1)
    users = get_users([int(member.rsplit(":", 1)[1]) for member in members[:count]])
    return users, members[count - 1] if len(members) > count else ""


def queue_name_entries(pipe: Pipe, users: Sequence[Mapping[str, Any]]) -> None:
    """Queues on `pipe` putting `users` (profiles with id, login and name) in people
    search: idempotent, for profiles made before it existed (`manage.py reindex_search`)."""
    for user in users:
        entries = name_entries(user["id"], user["login"], user.get("name") or user["login"])
        pipe.zadd(keys.NAME_SEARCH, dict.fromkeys(entries, 0))


# Matches ranked by followers are taken from at most this many prefix matches.
PEOPLE_CANDIDATES = 500
PEOPLE_QUERY_MAX_LENGTH = NAME_MAX_LENGTH


def search_people(query: str, *, page: int = 1, count: int = 20) -> tuple[list[UserProfile], bool]:
    """Page `page` of the people whose login or display name (or one of its words)
    starts with `query`, ignoring case and accents ("@" allowed), most followed first,
    and whether a later page exists: 3 round trips. Ranked among the first
    PEOPLE_CANDIDATES matches in name order, so a very short query may miss some."""
    prefix = folded((query or "").strip().removeprefix("@")).strip()
    if not prefix:
        raise ValueError("Type part of a login or a name.")
    if len(prefix) > PEOPLE_QUERY_MAX_LENGTH:
        raise ValueError(f"Names are at most {PEOPLE_QUERY_MAX_LENGTH} characters.")
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    # Members are UTF-8 bytes; 0xFF never appears in UTF-8, so it sorts after them all.
    low = b"[" + prefix.encode()
    members = get_redis().zrangebylex(keys.NAME_SEARCH, low, low + b"\xff", 0, PEOPLE_CANDIDATES)
    uids = list(dict.fromkeys(int(member.rsplit("\0", 1)[1]) for member in members))
    # Ranked on two fields of each match (raw replies: ~10x cheaper than whole profiles
    # parsed by redis-py), then only the page's profiles are read whole.
    pipe = PackedPipeline(get_redis())
    pipe.for_each_key(map(keys.user_key, uids), ("HMGET", "login", "followers", "suspended"))
    ranked = sorted(
        (-int(followers or 0), login, uid)
        for uid, (login, followers, suspended) in zip(uids, pipe.execute(), strict=True)
        if login and suspended != "1"
    )
    start = (page - 1) * count
    shown = [uid for _, _, uid in ranked[start : start + count]]
    return get_users(shown), len(ranked) > start + count


def set_suspended(uid: int, suspended: bool) -> bool:
    """Suspends a user (they can't log in, post or stream, and others don't see their
    statuses) or lifts it. True if that changed something, False if it already was so."""
    user = get_user(uid)
    if user is None:
        raise ValueError("No such user.")
    if user["suspended"] == suspended:
        return False
    pipe = get_redis().pipeline(transaction=False)
    if suspended:
        pipe.hset(keys.user_key(uid), "suspended", "1")
        pipe.sadd(keys.SUSPENDED_USERS, uid)
    else:
        pipe.hdel(keys.user_key(uid), "suspended")
        pipe.srem(keys.SUSPENDED_USERS, uid)
    pipe.execute()
    # Django refuses inactive users at login and drops their open sessions (saved, not
    # updated, so the cached user is forgotten: accounts.backends).
    django_user = User.objects.filter(username__iexact=user["login"]).first()
    if django_user is not None:
        django_user.is_active = not suspended
        django_user.save(update_fields=["is_active"])
    return True


def release_login(uid: int) -> None:
    """Frees `uid`'s login for others: drops it from the login indexes and deletes the
    Django user. The profile hash stays (its owner's data is still being removed)."""
    conn = get_redis()
    login, name = conn.hmget(keys.user_key(uid), "login", "name")
    if not login:
        return
    # While the index maps the login to `uid` nobody else can claim it, so this
    # check-then-delete can't remove a newer owner's entry.
    if conn.hget(keys.LOGIN_INDEX, login.lower()) == str(uid):
        conn.hdel(keys.LOGIN_INDEX, login.lower())
    conn.zrem(keys.LOGIN_SEARCH, keys.login_search_entry(login, uid))
    conn.zrem(keys.NAME_SEARCH, *name_entries(uid, login, name or login))
    # Last: with the login already unmapped, the post_delete signal (signals.py) sees a
    # user whose purge is under way and doesn't start another.
    User.objects.filter(username__iexact=login).delete()


# Sent with `uid` when an account is closed (close_account): each app that keeps data of
# the user connects a receiver that removes it (the timeline's purge, stream keys).
# Apps above accounts listen; accounts never needs to know them.
account_closed = Signal()


def close_account(uid: int) -> UserProfile:
    """Closes an account for good; returns its profile as it was. At once the user can't
    log in or be found, their login is free and their statuses are hidden (they are
    suspended); the account_closed receivers remove the rest. ValueError if there is no
    such user."""
    user = get_user(uid)
    if user is None:
        raise ValueError("No such user.")
    set_suspended(uid, True)
    release_login(uid)
    account_closed.send(sender=close_account, uid=uid)
    return user


def create_login_users(logins: list[str], password: str) -> int:
    """Gives existing profiles Django users who log in with `password`; returns how many
    were made (logins that already have one are skipped)."""
    # One hash for all: hashing is deliberately slow, and seeding makes thousands.
    hashed = make_password(password)
    existing = {
        name.lower()
        for name in User.objects.filter(username__in=logins).values_list("username", flat=True)
    }
    # bulk_create sends no post_save, which is right: the profiles exist already.
    new = [
        User(username=login, password=hashed) for login in logins if login.lower() not in existing
    ]
    return len(User.objects.bulk_create(new, batch_size=500))
