"""Web Push subscriptions (/api/v1/push/subscription): one per access token, made,
read, changed and removed with the `push` scope, as on Mastodon."""

import hashlib

from timeline.push import services as push

from .. import entities
from ..http import ApiError, ApiRequest, caller_uid, endpoint, limit_rate, params
from ..vapid import vapid_public_key


def _token_checksum(request: ApiRequest) -> str:
    """The caller's access token as django-oauth-toolkit keeps it (its SHA-256): the
    subscription's name, never the token itself."""
    token = request.headers.get("Authorization", "").partition(" ")[2].strip()
    return hashlib.sha256(token.encode()).hexdigest()


def _part(found: dict, *path: str):
    """A nested parameter: from a JSON object ({"subscription": {"keys": {...}}}) or a
    form's bracketed name ("subscription[keys][auth]")."""
    value: object = found
    for name in path:
        value = value.get(name) if isinstance(value, dict) else None
    if value is not None:
        return value
    return found.get(path[0] + "".join(f"[{name}]" for name in path[1:]))


def _alerts(found: dict) -> dict | None:
    """The alerts given (name -> value), from JSON or from data[alerts][name] fields."""
    given = _part(found, "data", "alerts")
    if isinstance(given, dict):
        return given
    prefix = "data[alerts]["
    flat = {
        name[len(prefix) : -1]: value
        for name, value in found.items()
        if name.startswith(prefix) and name.endswith("]")
    }
    return flat or None


def _policy(found: dict):
    """data[policy], or policy as Mastodon.py sends it."""
    return _part(found, "data", "policy") or found.get("policy")


def _true(value: object) -> bool:
    return str(value).lower() in {"1", "true", "on", "yes"}


def subscription_entity(subscription: push.Subscription) -> dict:
    return {
        "id": subscription["id"],
        "endpoint": subscription["endpoint"],
        "standard": subscription.get("standard", False),
        "alerts": subscription["alerts"],
        "policy": subscription["policy"],
        "server_key": vapid_public_key(),
    }


@endpoint("GET", "POST", "PUT", "DELETE", scope="push")
def subscription(request: ApiRequest) -> dict:
    uid, token = caller_uid(request), _token_checksum(request)
    if request.method == "GET":
        found = push.subscription_of(uid, token)
        if found is None:
            raise ApiError(404, "Record not found")
        return subscription_entity(found)
    limit_rate(request, "push_subscriptions")
    if request.method == "DELETE":
        push.unsubscribe(uid, token)
        return {}
    given = params(request)
    if request.method == "PUT":
        try:
            changed = push.update_alerts(uid, token, alerts=_alerts(given), policy=_policy(given))
        except LookupError:
            raise ApiError(404, "Record not found") from None
        return subscription_entity(changed)
    made = push.subscribe(
        uid,
        token,
        endpoint=push.check_endpoint(_part(given, "subscription", "endpoint")),
        p256dh=push.check_key(_part(given, "subscription", "keys", "p256dh"), "p256dh"),
        auth=push.check_key(_part(given, "subscription", "keys", "auth"), "auth"),
        alerts=push.check_alerts(_alerts(given)),
        policy=push.check_policy(_policy(given)),
        site=entities.site_of(request),
        standard=_true(_part(given, "subscription", "standard")),
    )
    return subscription_entity(made)
