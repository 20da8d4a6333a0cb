"""Stream keys, the streams open on them, and the numbers an operator watches.

A stream key is shown once, when it is made; Redis keeps only its SHA-256. The
key names its owner and its id (`ssk_<uid>_<id>_<secret>`), so checking it reads
only its owner's slot: no global index to keep in step with the per-user records.

Every open stream holds a place, renewed by its server every
STREAM_HEARTBEAT_SECONDS and forgotten a few heartbeats after its server stops
renewing it, so a crashed process never holds a key's slots for good."""

import hashlib
import hmac
import math
import re
import secrets
import time
from dataclasses import dataclass, field

from django.conf import settings

from accounts.keys import user_key
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import Batch, get_async_redis, get_redis
from timeline.audience import selectors as safety
from timeline.feeds import home_list
from timeline.follow_sets import following
from timeline.keeps import selectors as keeps
from timeline.keys import following_key, home_timeline_key, shown_reposts_key

from . import keys, scripts

KEY_NAME_MAX_LENGTH = 50
_KEY_PATTERN = re.compile(r"ssk_([1-9][0-9]{0,17})_([0-9a-f]{12})_[A-Za-z0-9_-]{32}")
_SUSPENDED = "This account is suspended and can't stream."


class StreamRefused(Exception):
    """Why a stream can't open (or go on): the HTTP status that says so, and a message."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        # Seconds after which trying again may succeed (a 429's Retry-After).
        self.retry_after = retry_after

    @property
    def close_code(self) -> int:
        """The WebSocket close code saying the same: 4000 + the HTTP status."""
        return 4000 + self.status


@dataclass(frozen=True)
class StreamGrant:
    """An open stream's place: whose it is, the key it is open on (None: the
    user's logged-in session), its connection id, and the client address it holds a
    place of (None: not counted)."""

    uid: int
    key_id: str | None
    connection_id: str
    ip: str | None = None


def _digest(key: str) -> str:
    # The key carries 192 random bits, so a fast hash is enough to store it safely.
    return hashlib.sha256(key.encode()).hexdigest()


def _parse_key(key: str) -> tuple[int, str] | None:
    match = _KEY_PATTERN.fullmatch(key or "")
    return (int(match[1]), match[2]) if match else None


def _lifetime() -> float:
    """Seconds an unrenewed stream keeps its place: a few missed heartbeats."""
    return 5 * settings.STREAM_HEARTBEAT_SECONDS


def create_stream_key(uid: int, name: str = "") -> str:
    """Makes a stream key for `uid` and returns it: the only time it can be read.

    ValueError for a name too long, an unknown user, or a user with too many keys."""
    name = (name or "").strip()
    if len(name) > KEY_NAME_MAX_LENGTH:
        raise ValueError(f"A key's name is at most {KEY_NAME_MAX_LENGTH} characters.")
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.exists(user_key(uid))
    pipe.zcard(keys.stream_keys_key(uid))
    exists, count = pipe.execute()
    if not exists:
        raise ValueError("No such user.")
    if count >= settings.STREAM_KEYS_PER_USER:
        raise ValueError(f"You already have {count} stream keys; revoke one first.")
    key_id = secrets.token_hex(6)
    key = f"ssk_{uid}_{key_id}_{secrets.token_urlsafe(24)}"
    now = time.time()
    pipe = conn.pipeline(transaction=True)
    pipe.hset(
        keys.stream_key_key(uid, key_id),
        mapping={"digest": _digest(key), "name": name, "created": now},
    )
    pipe.zadd(keys.stream_keys_key(uid), {key_id: now})
    pipe.execute()
    return key


def list_stream_keys(uid: int) -> list[dict]:
    """`uid`'s stream keys, newest first: id, name, created, last_used (None: never)."""
    conn = get_redis()
    key_ids = conn.zrevrange(keys.stream_keys_key(uid), 0, -1)
    pipe = conn.pipeline(transaction=False)
    for key_id in key_ids:
        pipe.hgetall(keys.stream_key_key(uid, key_id))
    records = pipe.execute() if key_ids else []
    return [
        {
            "id": key_id,
            "name": record.get("name", ""),
            "created": float(record["created"]),
            "last_used": float(record["last_used"]) if "last_used" in record else None,
        }
        for key_id, record in zip(key_ids, records, strict=True)
        if record
    ]


def revoke_stream_key(uid: int, key_id: str) -> bool:
    """Deletes one of `uid`'s stream keys: True, or False if they have no such key.
    Streams open on it end at their next heartbeat."""
    pipe = get_redis().pipeline(transaction=True)
    pipe.zrem(keys.stream_keys_key(uid), key_id)
    pipe.delete(keys.stream_key_key(uid, key_id), keys.stream_key_connections_key(uid, key_id))
    removed, _ = pipe.execute()
    return bool(removed)


def uid_for_stream_key(key: str) -> int | None:
    """The owner of a valid stream key, or None for an unknown or revoked one."""
    parsed = _parse_key(key)
    if parsed is None:
        return None
    uid, key_id = parsed
    digest = get_redis().hget(keys.stream_key_key(uid, key_id), "digest")
    return uid if digest and hmac.compare_digest(digest, _digest(key)) else None


async def open_stream(*, key: str | None, uid: int | None, ip: str | None = None) -> StreamGrant:
    """Takes a place for a new stream on `key`, or else for the logged-in user `uid`
    (whose session streams have no per-key limit), opened from the client address `ip`
    (None: not counted, as for the command line).

    StreamRefused: 401 no or unknown key, 403 suspended owner, 429 the key's streams or
    the address's (STREAM_CONNECTIONS_PER_IP, across all server processes) are all open."""
    if key and _parse_key(key) is None:
        raise StreamRefused(401, "Unknown stream key.")
    if not key and uid is None:
        raise StreamRefused(401, "Give your stream key as the identifier parameter.")
    conn = get_async_redis()
    now = time.time()
    connection_id = secrets.token_hex(8)
    # The address's place first: a client over its limit costs no look at the key.
    if ip is not None:
        await _take_ip_place(conn, ip, connection_id, now)
    try:
        if key:
            uid, key_id = await _take_key_place(conn, key, connection_id, now)
        else:
            key_id = None
            # No key: a logged-in user's stream (a uid, checked above).
            assert uid is not None
            if await conn.hget(user_key(uid), "suspended") == "1":
                raise StreamRefused(403, _SUSPENDED)
        await conn.zadd(keys.OPEN_STREAMS, {connection_id: now + _lifetime()})
    except BaseException:
        if ip is not None:
            await conn.zrem(keys.stream_ip_connections_key(ip), connection_id)
        raise
    return StreamGrant(uid=uid, key_id=key_id, connection_id=connection_id, ip=ip)


async def _take_ip_place(conn, ip: str, connection_id: str, now: float) -> None:
    """Takes a place for a stream among those open from the client address `ip`."""
    limit = settings.STREAM_CONNECTIONS_PER_IP
    taken = await scripts.take_place(
        conn,
        connections_key=keys.stream_ip_connections_key(ip),
        now=now,
        connection_id=connection_id,
        expires=now + _lifetime(),
        most=limit,
        set_lifetime=math.ceil(_lifetime()),
    )
    if not taken:
        raise StreamRefused(
            429,
            f"Your address already has {limit} open streams, the most allowed.",
            retry_after=math.ceil(_lifetime()),
        )


async def _take_key_place(conn, key: str, connection_id: str, now: float) -> tuple[int, str]:
    """The key's owner and id, once a place is taken for a stream on it."""
    parsed = _parse_key(key)
    if parsed is None:
        raise StreamRefused(401, "Unknown stream key.")
    uid, key_id = parsed
    limit = settings.STREAM_CONNECTIONS_PER_KEY
    opened = await scripts.open_stream(
        conn,
        stream_key_key=keys.stream_key_key(uid, key_id),
        connections_key=keys.stream_key_connections_key(uid, key_id),
        user_key=user_key(uid),
        digest=_digest(key),
        now=now,
        connection_id=connection_id,
        expires=now + _lifetime(),
        most=limit,
        set_lifetime=math.ceil(_lifetime()),
    )
    if opened == -1:
        raise StreamRefused(401, "Unknown stream key.")
    if opened == -2:
        raise StreamRefused(403, _SUSPENDED)
    if opened == 0:
        raise StreamRefused(
            429,
            f"This key already has {limit} open streams, the most allowed.",
            retry_after=math.ceil(_lifetime()),
        )
    return uid, key_id


async def keep_streams(grants: list[StreamGrant]) -> list[StreamRefused | None]:
    """Renews the places of a process's open streams, in one round trip: for each,
    None, or why it must end now (its key was revoked, its owner suspended)."""
    if not grants:
        return []
    expiry = time.time() + _lifetime()
    # One script per owner rather than four commands per stream: thousands of streams
    # share a few hundred owners, and this runs on the event loop that relays them.
    owners: dict[int, dict[str | None, list[str]]] = {}
    for grant in grants:
        owners.setdefault(grant.uid, {}).setdefault(grant.key_id, []).append(grant.connection_id)
    batch = Batch(get_async_redis())
    batch.pipe.zadd(keys.OPEN_STREAMS, {grant.connection_id: expiry for grant in grants}, xx=True)
    _renew_ip_places(batch.pipe, grants, expiry)
    kept = []
    for uid, streams in owners.items():
        stream_keys, args = [], []
        for key_id, connection_ids in streams.items():
            if key_id:
                stream_keys += [
                    keys.stream_key_key(uid, key_id),
                    keys.stream_key_connections_key(uid, key_id),
                ]
                args += [len(connection_ids), *connection_ids]
        renewed = scripts.keep_streams(
            batch,
            user_key=user_key(uid),
            stream_keys=stream_keys,
            expires=expiry,
            set_lifetime=math.ceil(_lifetime()),
            args=args,
        )
        kept.append((uid, streams, renewed))
    await batch.execute()
    suspended: set[int] = set()
    revoked: set[tuple[int, str]] = set()
    for uid, streams, reply in kept:
        owner_suspended, *exists = reply.value
        if owner_suspended:
            suspended.add(uid)
        key_ids = [key_id for key_id in streams if key_id]
        revoked.update((uid, key_id) for key_id, e in zip(key_ids, exists, strict=True) if not e)
    return [_renewal(grant, suspended, revoked) for grant in grants]


def _renew_ip_places(pipe, grants: list[StreamGrant], expiry: float) -> None:
    """Queues the renewal of the grants' client address places: two commands per
    address, each in that address's slot."""
    addresses: dict[str, dict[str, float]] = {}
    for grant in grants:
        if grant.ip is not None:
            addresses.setdefault(grant.ip, {})[grant.connection_id] = expiry
    for ip, places in addresses.items():
        pipe.zadd(keys.stream_ip_connections_key(ip), places, xx=True)
        pipe.expire(keys.stream_ip_connections_key(ip), math.ceil(_lifetime()))


def _renewal(grant: StreamGrant, suspended: set, revoked: set) -> StreamRefused | None:
    if (grant.uid, grant.key_id) in revoked:
        return StreamRefused(401, "This stream key was revoked.")
    if grant.uid in suspended:
        return StreamRefused(403, _SUSPENDED)
    return None


async def close_stream(grant: StreamGrant) -> None:
    """Gives back an ended stream's place."""
    pipe = get_async_redis().pipeline(transaction=False)
    pipe.zrem(keys.OPEN_STREAMS, grant.connection_id)
    if grant.key_id:
        pipe.zrem(keys.stream_key_connections_key(grant.uid, grant.key_id), grant.connection_id)
    if grant.ip is not None:
        pipe.zrem(keys.stream_ip_connections_key(grant.ip), grant.connection_id)
    await pipe.execute()


@dataclass(frozen=True)
class HomeState:
    """What a live home stream knows of its owner's home when it (re)reads it: whom
    they follow, the home's `newest` entries' ids, newest first, each once (`complete`:
    all of them), and `shown`, for the reposts among those that the repost rule counts,
    original id -> repost id; `audience`, what timeline.audience's rule needs of them
    (blocks, mutes, muted words)."""

    followed: list[int]
    newest: list[int]
    shown: dict[int, int]
    complete: bool
    audience: safety.Audience = field(default_factory=lambda: safety.Audience(None))
    # The tags they follow (timeline.keeps): a public status with one reaches their home.
    followed_tags: frozenset[str] = frozenset()


async def home_state(uid: int, count: int) -> HomeState:
    """`uid`'s following, the `count` newest entries of their home, their blocks and
    mutes and the tags they follow: 1 round trip."""
    pipe = Batch(get_async_redis())
    state = scripts.home_state(
        pipe,
        following_key=following_key(uid),
        home_key=home_timeline_key(uid),
        shown_reposts_key=shown_reposts_key(home_timeline_key(uid)),
        count=count,
        following_buckets=following.BUCKETS,
    )
    audience = safety.queue_audience(pipe, uid)
    tags = keeps.queue_followed_tag_names(pipe, uid)
    await pipe.execute()
    followed, window, shown = state.value
    newest = [int(i) for i in home_list.shown(window)[0]]
    return HomeState(
        followed=[int(u) for u in followed],
        newest=newest,
        shown={int(shown[i]): int(shown[i + 1]) for i in range(0, len(shown), 2)},
        complete=len(window) < count,
        audience=audience.audience,
        followed_tags=frozenset(tags.value),
    )


async def viewer_audience(uid: int, *, with_follows: bool) -> safety.Audience:
    """What timeline.audience's rule needs of a stream's owner `uid`: their blocks both
    ways (and mutes), and, `with_follows`, everyone they follow (for a stream that can
    pass follow events, whose private sides only approved followers see). 1 round trip,
    in their slot."""
    batch = Batch(get_async_redis())
    read = safety.queue_audience(batch, uid)
    followed = following.queue_everyone(batch, uid) if with_follows else None
    await batch.execute()
    audience = read.audience
    if followed is not None:
        audience.follows = followed.uids
    return audience


async def suspended_among(uids: list[int]) -> set[int]:
    """Which of `uids` are suspended: 1 round trip (each read in its user's slot)."""
    batch = Batch(get_async_redis())
    reads = [(uid, batch.hget(user_key(uid), "suspended")) for uid in uids]
    await batch.execute()
    return {uid for uid, read in reads if read.value == "1"}


def stream_stats() -> dict:
    """For the operators' dashboard: `clients`, the streams open across all server
    processes, and `subscriptions`, the processes (and command-line streams)
    subscribed to the event channel."""
    pipe = get_redis().pipeline(transaction=False)
    pipe.zremrangebyscore(keys.OPEN_STREAMS, "-inf", time.time())
    pipe.zcard(keys.OPEN_STREAMS)
    pipe.pubsub_numsub(STATUS_CHANNEL)
    _, clients, numsub = pipe.execute()
    return {"clients": clients, "subscriptions": dict(numsub).get(STATUS_CHANNEL, 0)}


def dashboard_figures() -> dict:
    """Streaming's figure for the operators' dashboard (socialsite.dashboard)."""
    return {"stream_clients": stream_stats()["clients"]}


def address_places_held(ip: str) -> int:
    """How many places among the streams open from `ip` are held (at most
    STREAM_CONNECTIONS_PER_IP), lapsed ones not yet swept included."""
    return get_redis().zcard(keys.stream_ip_connections_key(ip))
