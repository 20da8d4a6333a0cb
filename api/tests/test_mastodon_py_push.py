"""Web Push as the Mastodon.py library uses it, against a real daphne: it makes its keys,
subscribes with the push scope, and decrypts what the worker pushes to a push service the
test runs (the aesgcm encoding an app that doesn't say `standard` gets, as from Mastodon
before 4.4); a standard subscription gets RFC 8291's aes128gcm."""

import pytest
import requests
from django.core.management import call_command
from mastodon import Mastodon, MastodonAPIError, MastodonNotFoundError

from .clients import signed_in_client
from .conftest import PASSWORD
from .push_server import PushService

SCOPES = ["read", "write", "follow", "push"]


@pytest.fixture(autouse=True)
def push_settings(settings):
    settings.PUSH_ALLOW_HTTP = True


@pytest.fixture
def service():
    with PushService() as running:
        yield running


def test_push_with_mastodon_py(daphne_server, person, mastodon_as, service):
    person("alice")
    alice = signed_in_client(daphne_server, "alice", PASSWORD, SCOPES)
    bob = mastodon_as("bob")
    private, public = alice.push_subscription_generate_keys()
    endpoint = f"{service.base}/push/alice"
    made = alice.push_subscription_set(endpoint, public, follow_events=True, mention_events=True)
    assert made.endpoint == endpoint and made.alerts.follow is True
    assert made.alerts.favourite is False
    assert made.server_key == alice.instance_v2().configuration.vapid.public_key
    assert alice.push_subscription().id == made.id
    changed = alice.push_subscription_update(favourite_events=True, policy="all")
    assert changed.alerts.favourite is True and changed.alerts.follow is True

    bob.account_follow(alice.account_verify_credentials().id)
    call_command("worker", burst=True)
    [received] = service.received
    assert received.headers["content-encoding"] == "aesgcm"
    message = alice.push_subscription_decrypt_push(
        received.body, private, received.headers["encryption"], received.headers["crypto-key"]
    )
    assert message.notification_type == "follow" and message.title == "Bob followed you"

    alice.push_subscription_delete()
    with pytest.raises(MastodonNotFoundError):
        alice.push_subscription()


def test_push_needs_the_push_scope_with_mastodon_py(mastodon_as):
    alice = mastodon_as("alice")
    _, public = Mastodon.push_subscription_generate_keys(alice)
    with pytest.raises(MastodonAPIError, match="scope"):
        alice.push_subscription_set("https://push.example/x", public, follow_events=True)


def test_a_standard_subscription_gets_aes128gcm(daphne_server, person, mastodon_as, service):
    # Mastodon.py doesn't send `standard`: the form an app sends, with its token.
    person("alice")
    alice = signed_in_client(daphne_server, "alice", PASSWORD, SCOPES)
    endpoint, device = service.device("alice")
    answer = requests.post(
        f"{daphne_server}/api/v1/push/subscription",
        data={
            "subscription[endpoint]": endpoint,
            "subscription[keys][p256dh]": device.keys["p256dh"],
            "subscription[keys][auth]": device.keys["auth"],
            "subscription[standard]": "true",
            "data[alerts][follow]": "true",
        },
        headers={"Authorization": f"Bearer {alice.access_token}"},
        timeout=30,
    )
    assert answer.status_code == 200 and answer.json()["standard"] is True
    mastodon_as("bob").account_follow(alice.account_verify_credentials().id)
    call_command("worker", burst=True)
    [message] = service.messages("alice")
    assert message["notification_type"] == "follow"
    assert service.received[0].headers["content-encoding"] == "aes128gcm"
