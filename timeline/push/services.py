"""Web Push subscriptions: a client app's endpoint and keys, one per access token (as
on Mastodon), with the kinds of notification it wants (alerts) and from whom (policy).

A subscription is a field of its owner's hash (push_subscriptions_key), so each change
is one step in the owner's slot; the set of uids with any subscription (PUSH_SUBSCRIBERS)
is a second, idempotent step. A notification asks `queue_push`, which reads a copy of
that set kept in the process (reloaded when its version key changes, looked at most
every PUSH_SUBSCRIBERS_RECHECK_SECONDS), so that the many users with no subscription
cost a notification nothing. The delivery itself is api.push's job."""

import base64
import binascii
import json
import time
import uuid
from typing import Any, TypedDict
from urllib.parse import urlsplit

from django.conf import settings

from socialsite import jobs
from socialsite.redis import get_redis

from . import keys

# Mastodon's alert names (4.3), each a kind of notification a subscription may want.
ALERTS = (
    "mention",
    "status",
    "reblog",
    "follow",
    "follow_request",
    "favourite",
    "poll",
    "update",
    "quote",
    "quoted_update",
    "admin.sign_up",
    "admin.report",
)
POLICIES = ("all", "followed", "follower", "none")
# The job that delivers one notification to its recipient's subscriptions (api.push).
PUSH_JOB = "push_notification"
ENDPOINT_MAX_LENGTH = 2000
KEY_MAX_LENGTH = 200


class Subscription(TypedDict):
    id: str
    endpoint: str
    p256dh: str
    auth: str
    alerts: dict[str, bool]
    policy: str
    # RFC 8291's aes128gcm and RFC 8292's VAPID; else the drafts Mastodon sent before 4.4
    # (aesgcm), which apps that don't say `standard` still expect.
    standard: bool
    created: float
    # The site's address as the app reached it (the message's icon URL starts with it).
    site: str


def check_endpoint(endpoint: object) -> str:
    """A push endpoint: an https URL (http only where PUSH_ALLOW_HTTP, for tests)."""
    text = str(endpoint or "").strip()
    parts = urlsplit(text)
    allowed = {"https", "http"} if settings.PUSH_ALLOW_HTTP else {"https"}
    if parts.scheme not in allowed or not parts.hostname or len(text) > ENDPOINT_MAX_LENGTH:
        raise ValueError("subscription[endpoint] must be an https URL.")
    return text


def check_key(value: object, name: str) -> str:
    """A key of the subscription in base64url (or plain base64, as some apps send it),
    kept as base64url: p256dh 65 bytes, auth 16."""
    text = str(value or "").strip().replace("+", "-").replace("/", "_").rstrip("=")
    expected = {"p256dh": 65, "auth": 16}[name]
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, binascii.Error):
        raw = b""
    if len(text) > KEY_MAX_LENGTH or len(raw) != expected:
        raise ValueError(f"subscription[keys][{name}] must be a base64url key of {expected} bytes.")
    return text


def check_alerts(alerts: dict[str, Any] | None, current: dict[str, bool] | None = None) -> dict:
    """Alerts as Mastodon takes them (name -> true/false); those not given keep `current`
    (off for a new subscription). ValueError for an unknown name."""
    found = dict(current or dict.fromkeys(ALERTS, False))
    for name, value in (alerts or {}).items():
        if name not in ALERTS:
            raise ValueError(f"Unknown alert {name!r}: use {', '.join(ALERTS)}.")
        found[name] = str(value).lower() in {"1", "true", "on", "yes"}
    return found


def check_policy(policy: object, current: str = "all") -> str:
    if policy in (None, ""):
        return current
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}.")
    return str(policy)


def subscribe(
    uid: int,
    token: str,
    *,
    endpoint: str,
    p256dh: str,
    auth: str,
    alerts: dict,
    policy: str,
    site: str,
    standard: bool = False,
) -> Subscription:
    """Makes (or replaces) the subscription of access token `token` (its checksum) for
    `uid`; arguments already checked."""
    conn = get_redis()
    subscription: Subscription = {
        "id": str(conn.incr(keys.PUSH_SUBSCRIPTION_COUNTER)),
        "endpoint": endpoint,
        "p256dh": p256dh,
        "auth": auth,
        "alerts": alerts,
        "policy": policy,
        "standard": standard,
        "created": time.time(),
        "site": site,
    }
    conn.hset(keys.push_subscriptions_key(uid), token, json.dumps(subscription))
    _mark_subscriber(uid, True)
    return subscription


def update_alerts(uid: int, token: str, *, alerts: dict | None, policy: object) -> Subscription:
    """Changes the alerts and policy of `token`'s subscription; LookupError if it has none."""
    found = subscription_of(uid, token)
    if found is None:
        raise LookupError("Record not found")
    found["alerts"] = check_alerts(alerts, found["alerts"])
    found["policy"] = check_policy(policy, found["policy"])
    get_redis().hset(keys.push_subscriptions_key(uid), token, json.dumps(found))
    return found


def subscription_of(uid: int, token: str) -> Subscription | None:
    raw = get_redis().hget(keys.push_subscriptions_key(uid), token)
    return json.loads(raw) if raw else None


def subscriptions(uid: int) -> dict[str, Subscription]:
    """Every subscription of `uid`, by their tokens' checksums."""
    found = get_redis().hgetall(keys.push_subscriptions_key(uid))
    return {token: json.loads(raw) for token, raw in found.items()}


def unsubscribe(uid: int, token: str, *, subscription_id: str | None = None) -> bool:
    """Removes `token`'s subscription (only if its id is still `subscription_id`, when
    given: a delivery that failed must not remove the one that replaced it)."""
    key = keys.push_subscriptions_key(uid)
    conn = get_redis()
    if subscription_id is not None:
        found = subscription_of(uid, token)
        if found is None or found["id"] != subscription_id:
            return False
    removed = bool(conn.hdel(key, token))
    if not conn.exists(key):
        _mark_subscriber(uid, False)
    return removed


def unsubscribe_all(uid: int) -> None:
    """Removes every subscription of `uid` (their account is closed)."""
    get_redis().delete(keys.push_subscriptions_key(uid))
    _mark_subscriber(uid, False)


def _mark_subscriber(uid: int, subscribed: bool) -> None:
    pipe = get_redis().pipeline(transaction=False)
    (pipe.sadd if subscribed else pipe.srem)(keys.PUSH_SUBSCRIBERS, int(uid))
    # A new random version (not a count, which would repeat after the store is emptied).
    pipe.set(keys.PUSH_SUBSCRIBERS_VERSION, uuid.uuid4().hex)
    pipe.execute()
    # This process knows at once; the others at their next look.
    (_known.uids.add if subscribed else _known.uids.discard)(int(uid))


class _KnownSubscribers:
    """This process's copy of PUSH_SUBSCRIBERS and the version it was read at."""

    def __init__(self) -> None:
        self.uids: set[int] = set()
        self.version: str | None = None
        self.checked = float("-inf")


_known = _KnownSubscribers()


def has_subscriptions(uid: int) -> bool:
    """Whether `uid` has any push subscription, from this process's copy of the set: at
    most one GET a PUSH_SUBSCRIBERS_RECHECK_SECONDS, and a reload when it changed."""
    now = time.monotonic()
    if now - _known.checked >= settings.PUSH_SUBSCRIBERS_RECHECK_SECONDS:
        conn = get_redis()
        version = conn.get(keys.PUSH_SUBSCRIBERS_VERSION)
        if version != _known.version:
            _known.uids = {int(member) for member in conn.smembers(keys.PUSH_SUBSCRIBERS)}
            _known.version = version
        _known.checked = now
    return int(uid) in _known.uids


def queue_push(pipe, recipient: int, member: str) -> None:
    """Queues on `pipe` (the notification's own) the job pushing notification `member`
    to `recipient`'s subscriptions, if they have any. The job reads whether the
    notification was kept (a block or mute may have refused it)."""
    if has_subscriptions(recipient):
        jobs.enqueue(pipe, (PUSH_JOB, {"uid": int(recipient), "member": member}))


def check_subscribers(*, fix: bool = False) -> tuple[int, list[tuple[str, str]]]:
    """The repair command's check: PUSH_SUBSCRIBERS lists exactly the users with a
    subscription hash (a crash between a subscription's two steps can leave them apart).
    Returns how many users were checked and (key, problem) for each mismatch; with
    `fix`, mends them."""
    conn = get_redis()
    listed = {int(member) for member in conn.smembers(keys.PUSH_SUBSCRIBERS)}
    actual = {
        int(key.rpartition("{")[2].rstrip("}"))
        for key in conn.scan_iter(match=keys.PUSH_SUBSCRIPTIONS_PATTERN, count=1000)
    }
    found = [
        (keys.push_subscriptions_key(uid), "not listed in push:subscribers")
        for uid in actual - listed
    ]
    found += [
        (keys.PUSH_SUBSCRIBERS, f"lists {uid}, who has no subscription") for uid in listed - actual
    ]
    if fix:
        for uid in actual - listed:
            _mark_subscriber(uid, True)
        for uid in listed - actual:
            _mark_subscriber(uid, False)
    return len(listed | actual), found
