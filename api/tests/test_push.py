"""Web Push: /api/v1/push/subscription with the push scope, and notifications delivered by
the worker as encrypted messages to a push service the test runs, which decrypts them
with the subscription's keys; alerts and policies, retries, and subscriptions removed
when the push service says they are gone."""

import base64
import json

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core.management import call_command
from oauth2_provider.models import AccessToken

from accounts.services import close_account
from socialsite import jobs
from socialsite.redis import get_redis
from timeline import keys
from timeline.graph.services import follow_user
from timeline.notifications.selectors import entries_of
from timeline.ops.maintenance import repair
from timeline.posting.services import post_status
from timeline.push import keys as push_keys
from timeline.push import services as push
from timeline.reactions.services import like
from timeline.safety.services import mute

from .push_server import PushService, unb64url


def api_ids(uid: int) -> dict[str, str]:
    """`uid`'s notifications' API ids (their scores), by kind, object and actor."""
    found = get_redis().zrange(keys.notifications_key(uid), 0, -1, withscores=True)
    return {f"{e.kind}-{e.obj}-{e.actor}": str(e.id) for e in entries_of(found)}


PUSH_SCOPE = "read write follow push"


@pytest.fixture(autouse=True)
def push_settings(settings):
    settings.PUSH_ALLOW_HTTP = True
    settings.PUSH_SUBSCRIBERS_RECHECK_SECONDS = 0
    settings.JOB_CLAIM_IDLE_MS = 0


@pytest.fixture
def service():
    with PushService() as running:
        yield running


def subscribe(call, service, name: str, alerts: dict | None = None, **data):
    endpoint, device = service.device(name)
    body = {
        "subscription": {"endpoint": endpoint, "keys": device.keys, "standard": True},
        "data": {"alerts": alerts or {"follow": True, "favourite": True}, **data},
    }
    return call("post", "/api/v1/push/subscription", body)


def run_worker() -> None:
    call_command("worker", burst=True)


def test_a_subscription_needs_the_push_scope(alice, api_as, service):
    status, body, _ = subscribe(api_as(alice, "read write follow"), service, "a")
    assert status == 403 and "scope" in body["error"]
    assert push.subscriptions(alice.uid) == {}


def test_a_subscription_is_made_read_changed_and_removed(alice, api_as, service):
    call = api_as(alice, PUSH_SCOPE)
    assert call("get", "/api/v1/push/subscription")[0] == 404
    status, made, _ = subscribe(call, service, "a", {"mention": True})
    assert status == 200
    assert made["endpoint"].endswith("/push/a") and made["policy"] == "all"
    assert made["alerts"]["mention"] is True and made["alerts"]["follow"] is False
    assert made["standard"] is True
    server_key = call("get", "/api/v2/instance")[1]["configuration"]["vapid"]["public_key"]
    assert made["server_key"] == server_key and len(unb64url(server_key)) == 65
    assert call("get", "/api/v1/push/subscription")[1] == made
    change = {"data": {"alerts": {"follow": True}, "policy": "followed"}}
    status, changed, _ = call("put", "/api/v1/push/subscription", change)
    assert status == 200 and changed["id"] == made["id"]
    assert changed["alerts"]["follow"] is True and changed["alerts"]["mention"] is True
    assert changed["policy"] == "followed"
    assert call("delete", "/api/v1/push/subscription")[:2] == (200, {})
    assert call("get", "/api/v1/push/subscription")[0] == 404
    assert call("put", "/api/v1/push/subscription", {"data": {"policy": "all"}})[0] == 404


def test_each_token_has_its_own_subscription(alice, api_as, service):
    phone, tablet = api_as(alice, PUSH_SCOPE), api_as(alice, PUSH_SCOPE)
    subscribe(phone, service, "phone")
    assert tablet("get", "/api/v1/push/subscription")[0] == 404
    subscribe(tablet, service, "tablet")
    tablet("delete", "/api/v1/push/subscription")
    assert phone("get", "/api/v1/push/subscription")[1]["endpoint"].endswith("/phone")


@pytest.mark.parametrize(
    "change",
    [
        {"subscription": {"endpoint": "ftp://example.com/x"}},
        {"subscription": {"endpoint": ""}},
        {"subscription": {"keys": {"p256dh": "abc"}}},
        {"subscription": {"keys": {"auth": "!!!"}}},
        {"data": {"alerts": {"nonsense": True}}},
        {"data": {"policy": "everyone"}},
    ],
)
def test_bad_input_is_422_and_stores_nothing(alice, api_as, service, change):
    call = api_as(alice, PUSH_SCOPE)
    endpoint, device = service.device("a")
    body = {
        "subscription": {"endpoint": endpoint, "keys": device.keys},
        "data": {"alerts": {"follow": True}},
    }
    for part, values in change.items():
        for name, value in values.items():
            if isinstance(value, dict):
                body[part][name] = {**body[part][name], **value}
            else:
                body[part][name] = value
    status, answer, _ = call("post", "/api/v1/push/subscription", body)
    assert status == 422 and answer["error"]
    assert push.subscriptions(alice.uid) == {}


def test_plain_http_endpoints_are_refused_outside_tests(alice, api_as, service, settings):
    settings.PUSH_ALLOW_HTTP = False
    status, answer, _ = subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    assert status == 422 and "https" in answer["error"]


def test_subscribing_too_often_is_429(alice, api_as, service, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "push_subscriptions": (1, 3600)}
    call = api_as(alice, PUSH_SCOPE)
    assert subscribe(call, service, "a")[0] == 200
    status, answer, response = subscribe(call, service, "b")
    assert status == 429 and int(response["Retry-After"]) > 0
    assert call("get", "/api/v1/push/subscription")[1]["endpoint"].endswith("/a")


def _verify_vapid(authorization: str, server_key: str, audience: str) -> None:
    """The message's VAPID header (RFC 8292) is signed by the site's key, for the service."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme == "vapid"
    parts = dict(item.strip().split("=", 1) for item in rest.split(","))
    assert parts["k"] == server_key
    header, claims, signature = parts["t"].split(".")
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    assert json.loads(unb64url(claims))["aud"] == audience


def test_a_notification_is_pushed_encrypted_by_the_worker(alice, bob, api_as, service):
    call = api_as(alice, PUSH_SCOPE)
    made = subscribe(call, service, "a")[1]
    follow_user(bob.uid, alice.uid)
    assert service.received == []  # the worker delivers, not the request
    run_worker()
    [received] = service.received
    assert received.headers["content-encoding"] == "aes128gcm"
    assert int(received.headers["ttl"]) > 0
    _verify_vapid(received.headers["authorization"], made["server_key"], service.base)
    assert received.message == {
        "notification_id": api_ids(alice.uid)[f"follow-0-{bob.uid}"],
        "notification_type": "follow",
        "preferred_locale": "en",
        "title": "Bob followed you",
        "body": "",
        "icon": received.message["icon"],
    }
    assert received.message["icon"].startswith("http://testserver/")


def test_a_status_notification_carries_its_text(alice, bob, api_as, service):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    status = post_status(alice.uid, "a fine day for it")
    like(bob.uid, status)
    run_worker()
    [message] = service.messages("a")
    assert message["notification_type"] == "favourite"
    assert message["notification_id"] == api_ids(alice.uid)[f"like-{status}-{bob.uid}"]
    assert message["body"] == "a fine day for it"


def test_only_the_alerts_asked_for_are_pushed(alice, bob, api_as, service):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a", {"mention": True})
    follow_user(bob.uid, alice.uid)
    post_status(bob.uid, "@alice hello")
    run_worker()
    assert [m["notification_type"] for m in service.messages("a")] == ["mention"]


@pytest.mark.parametrize(
    ("policy", "pushed"),
    [("all", ["bob", "carol"]), ("followed", ["bob"]), ("follower", ["carol"]), ("none", [])],
)
def test_the_policy_says_from_whom(alice, bob, make_user, api_as, service, policy, pushed):
    carol = make_user("carol")
    follow_user(alice.uid, bob.uid)  # alice follows bob; carol follows alice
    follow_user(carol.uid, alice.uid)
    run_worker()
    subscribe(api_as(alice, PUSH_SCOPE), service, "a", policy=policy)
    status = post_status(alice.uid, "like me")
    like(bob.uid, status)
    like(carol.uid, status)
    run_worker()
    ids = api_ids(alice.uid)
    senders = {ids[f"like-{status}-{bob.uid}"]: "bob", ids[f"like-{status}-{carol.uid}"]: "carol"}
    found = sorted(senders[m["notification_id"]] for m in service.messages("a"))
    assert found == pushed


def test_a_notification_a_mute_refuses_is_not_pushed(alice, bob, api_as, service):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    mute(alice.uid, bob.uid)
    like(bob.uid, post_status(alice.uid, "quiet"))
    run_worker()
    assert service.received == []


def test_a_failed_delivery_is_retried(alice, bob, api_as, service):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    service.answers["a"] = [503, 500]
    follow_user(bob.uid, alice.uid)
    run_worker()
    assert [r.message is not None for r in service.received] == [False, False, True]
    assert service.messages("a")[0]["notification_type"] == "follow"


@pytest.mark.parametrize("gone", [404, 410])
def test_a_subscription_the_service_says_is_gone_is_removed(alice, bob, api_as, service, gone):
    call = api_as(alice, PUSH_SCOPE)
    subscribe(call, service, "a")
    service.answers["a"] = [gone]
    follow_user(bob.uid, alice.uid)
    run_worker()
    assert len(service.received) == 1
    assert call("get", "/api/v1/push/subscription")[0] == 404
    assert not push.has_subscriptions(alice.uid)


def test_a_revoked_tokens_subscription_goes_with_it(alice, bob, api_as, service):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    AccessToken.objects.filter(user=alice.user).delete()
    follow_user(bob.uid, alice.uid)
    run_worker()
    assert service.received == [] and push.subscriptions(alice.uid) == {}


def test_a_closed_accounts_subscriptions_are_removed(alice, api_as, service):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    close_account(alice.uid)
    assert push.subscriptions(alice.uid) == {} and not push.has_subscriptions(alice.uid)


def test_a_user_with_no_subscription_queues_no_push_job(alice, bob, make_user, api_as, service):
    subscribe(api_as(bob, PUSH_SCOPE), service, "b")
    follow_user(bob.uid, alice.uid)
    assert jobs.unfinished_jobs(push.PUSH_JOB) == []
    follow_user(alice.uid, bob.uid)
    assert jobs.unfinished_jobs(push.PUSH_JOB) == [{"uid": bob.uid, "member": str(alice.uid)}]


def test_the_vapid_key_is_in_the_app_and_the_instance(alice, api_as):
    call = api_as(alice, PUSH_SCOPE)
    app = call("get", "/api/v1/apps/verify_credentials")[1]
    instance = call("get", "/api/v2/instance")[1]
    assert app["vapid_key"] == instance["configuration"]["vapid"]["public_key"]
    assert len(base64.urlsafe_b64decode(app["vapid_key"] + "=")) == 65


def test_repair_finds_and_mends_the_list_of_subscribers(alice, bob, api_as, service, redis_conn):
    subscribe(api_as(alice, PUSH_SCOPE), service, "a")
    redis_conn.srem(push_keys.PUSH_SUBSCRIBERS, alice.uid)
    redis_conn.sadd(push_keys.PUSH_SUBSCRIBERS, bob.uid)
    report = repair(fix=False)
    found = sorted(f.problem for f in report.findings if f.check == "push")
    assert found == [f"lists {bob.uid}, who has no subscription", "not listed in push:subscribers"]
    repair(fix=True)
    assert not [f for f in repair(fix=False).findings if f.check == "push"]
    assert push.has_subscriptions(alice.uid) and not push.has_subscriptions(bob.uid)
