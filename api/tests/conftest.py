"""Fixtures: people who can log in (a password, for the consent page) and Mastodon.py
clients signed in as them against the test daphne server."""

import json

import pytest
from django.test import Client

from accounts.services import sign_up, uid_for_login
from api.oauth import OOB, issue_token, register_app

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
        app, _ = register_app("tests", OOB, scope)
        return {"HTTP_AUTHORIZATION": f"Bearer {issue_token(app, member.user, scope)}"}

    return make


@pytest.fixture
def api_as(token_for):
    """Calls the API as `member` with the Django test client: `api_as(alice)("get",
    path, data)` -> (status, JSON, response); data goes as JSON but for GET and DELETE."""

    def make(member, scope: str = "read write follow"):
        headers, client = token_for(member, scope), Client()

        def call(method: str, path: str, data=None, **options):
            if method in ("get", "delete") or data is None:
                response = getattr(client, method)(path, data, **headers, **options)
            else:
                body = json.dumps(data)
                response = getattr(client, method)(
                    path, body, content_type="application/json", **headers, **options
                )
            return response.status_code, response.json(), response

        return call

    return make
