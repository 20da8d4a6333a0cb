"""Fixtures: people who can log in (a password, for the consent page) and Mastodon.py
clients signed in as them against the test daphne server."""

import secrets
from datetime import timedelta

import pytest
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application

from accounts.services import sign_up, uid_for_login
from api.models import ClientApp

from .clients import signed_in_client

PASSWORD = "correct horse battery staple"


@pytest.fixture
def person(transactional_db):
    """Makes a user who logs in with PASSWORD: `person("alice")` -> their uid."""

    def make(login: str) -> int:
        sign_up(login, PASSWORD, login.title())
        return uid_for_login(login)

    return make


@pytest.fixture
def mastodon_as(daphne_server, person):
    """A Mastodon.py client signed in as a new user `login`."""

    def make(login: str, scopes=("read", "write", "follow")):
        person(login)
        return signed_in_client(daphne_server, login, PASSWORD, list(scopes))

    return make


@pytest.fixture
def token_for(db):
    """An access token of `member` (a conftest Member) with `scope`, for the Django test
    client: the API's endpoints without the code flow, which test_oauth covers."""

    def make(member, scope: str = "read write follow") -> dict:
        application = Application.objects.create(
            name="tests",
            redirect_uris="urn:ietf:wg:oauth:2.0:oob",
            client_type=Application.CLIENT_CONFIDENTIAL,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        )
        ClientApp.objects.create(application=application, scopes=scope)
        token = AccessToken.objects.create(
            user=member.user,
            application=application,
            token=secrets.token_urlsafe(32),
            scope=scope,
            expires=timezone.now() + timedelta(days=1),
        )
        return {"HTTP_AUTHORIZATION": f"Bearer {token.token}"}

    return make
