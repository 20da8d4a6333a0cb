"""Web Push delivery: the worker's jobs that send each kept
notification to its recipient's subscriptions as an encrypted Web Push message (RFC 8291,
aes128gcm, signed with VAPID: pywebpush).

One job per notification (push_notification) picks the subscriptions whose alerts and
policy want it and queues one delivery each (push_deliver), so a failing endpoint is
retried alone: a delivery that fails (a 429, a 5xx, no answer) raises, and the job
queue runs it again, up to JOB_MAX_ATTEMPTS. An endpoint answered 404 or 410 (the app
was uninstalled, the subscription expired) is removed."""

import ipaddress
import json
import logging
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.dispatch import receiver
from oauth2_provider.models import AccessToken
from pywebpush import WebPushException, webpush

from accounts.services import account_closed, get_user
from socialsite import jobs
from timeline.graph.selectors import is_following
from timeline.notifications.selectors import notification_kept
from timeline.notifications.services import WHAT_THEY_DID, parse_member
from timeline.push import services as push
from timeline.statuses.selectors import get_status

from . import entities
from .vapid import vapid_signer
from .views.notifications import TYPES

log = logging.getLogger(__name__)

DELIVER_JOB = "push_deliver"
BODY_MAX_LENGTH = 140
# Answers that say the subscription is gone for good.
GONE = {404, 410}


def _contact() -> str:
    if settings.VAPID_CONTACT:
        return settings.VAPID_CONTACT
    hosts = [host.lstrip(".") for host in settings.ALLOWED_HOSTS if host not in {"*", ""}]
    return f"mailto:admin@{hosts[0] if hosts else 'localhost'}"


def wanted(subscription: push.Subscription, kind_type: str, uid: int, actor: int) -> bool:
    """Whether `subscription` wants a notification of Mastodon type `kind_type` by `actor`."""
    if not subscription["alerts"].get(kind_type):
        return False
    policy = subscription["policy"]
    if policy == "none":
        return False
    if policy == "followed":
        return is_following(uid, actor)
    if policy == "follower":
        return is_following(actor, uid)
    return True


def payload(uid: int, member: str) -> dict | None:
    """The push message of notification `member` of `uid`, as Mastodon's: None if it
    wasn't kept (refused by a block or mute, or taken back) or has no Mastodon type."""
    kind, object_id, actor = parse_member(member)
    notification_id = notification_kept(uid, member)
    if kind not in TYPES or notification_id is None:
        return None
    person = get_user(actor)
    if person is None:
        return None
    body = ""
    if object_id and kind not in {"group_request", "group_approval"}:
        status = get_status(object_id)
        body = status["message"][:BODY_MAX_LENGTH] if status else ""
    return {
        "notification_id": str(notification_id),
        "notification_type": TYPES[kind],
        "preferred_locale": "en",
        "title": f"{person.get('name') or person['login']} {WHAT_THEY_DID[kind]}",
        "body": body,
        "icon": "",
    }


@jobs.handler(push.PUSH_JOB)
def push_notification(args: dict) -> list[jobs.Job]:
    """Picks the subscriptions of the notification's recipient that want it: one
    delivery job each."""
    uid, member = int(args["uid"]), str(args["member"])
    message = payload(uid, member)
    if message is None:
        return []
    actor = parse_member(member)[2]
    return [
        (
            DELIVER_JOB,
            {"uid": uid, "token": token, "id": found["id"], "actor": actor, "message": message},
        )
        for token, found in push.subscriptions(uid).items()
        if wanted(found, message["notification_type"], uid, actor)
    ]


@jobs.handler(DELIVER_JOB)
def push_deliver(args: dict) -> list[jobs.Job]:
    """Sends one message to one subscription (if it is still the one picked, and its
    token still valid); raises to be retried when the push service fails."""
    uid, token = int(args["uid"]), str(args["token"])
    found = push.subscription_of(uid, token)
    if found is None or found["id"] != args["id"]:
        return []
    if not AccessToken.objects.filter(token_checksum=token).exists():
        # The app's token was revoked: its subscription goes with it.
        push.unsubscribe(uid, token, subscription_id=found["id"])
        return []
    people = entities.accounts(found["site"], [int(args["actor"])])
    icon = people[int(args["actor"])]["avatar"] if people else ""
    message = {**args["message"], "icon": icon}
    if not _may_reach(found["endpoint"]):
        log.warning("push endpoint %s refused: not a public address", found["endpoint"])
        push.unsubscribe(uid, token, subscription_id=found["id"])
        return []
    try:
        webpush(
            subscription_info={
                "endpoint": found["endpoint"],
                "keys": {"p256dh": found["p256dh"], "auth": found["auth"]},
            },
            data=json.dumps(message),
            vapid_private_key=vapid_signer(standard=bool(found.get("standard"))),
            vapid_claims={"sub": _contact()},
            content_encoding="aes128gcm" if found.get("standard") else "aesgcm",
            ttl=settings.PUSH_TTL_SECONDS,
            timeout=settings.PUSH_TIMEOUT_SECONDS,
            headers={"Urgency": "normal"},
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            push.unsubscribe(uid, token, subscription_id=found["id"])
            return []
        if status is not None and 400 <= status < 500 and status != 429:
            log.warning("push to %s refused (%s): dropped", found["endpoint"], status)
            return []
        raise
    return []


def _may_reach(endpoint: str) -> bool:
    """Whether `endpoint`'s host is a public address (any, where PUSH_ALLOW_HTTP: tests)."""
    if settings.PUSH_ALLOW_HTTP:
        return True
    host = urlsplit(endpoint).hostname or ""
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return True  # a name that doesn't resolve now: the delivery fails and is retried
    return all(ipaddress.ip_address(entry[4][0]).is_global for entry in found)


@receiver(account_closed)
def forget_closed_account(sender, uid: int, **kwargs) -> None:
    """A closed account's subscriptions go at once: nothing more is pushed to it."""
    push.unsubscribe_all(int(uid))
