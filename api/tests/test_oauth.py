"""OAuth 2 as Mastodon apps meet it, over HTTP against daphne: registering apps (and
the bad registrations refused), the code flow with PKCE, denying consent, client
credentials, revoking, and the settings page's authorised apps."""

import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import requests

from .clients import authorise, consent, logged_in_session
from .conftest import PASSWORD

REDIRECT = "http://app.example/callback"


def register(base: str, **fields) -> requests.Response:
    form = {"client_name": "an app", "redirect_uris": REDIRECT, "scopes": "read write"}
    return requests.post(f"{base}/api/v1/apps", data={**form, **fields})


def authorize_url(base: str, app: dict, **extra) -> str:
    query = {
        "client_id": app["client_id"],
        "response_type": "code",
        "redirect_uri": REDIRECT,
        "scope": "read write",
        **extra,
    }
    return f"{base}/oauth/authorize?{urlencode(query)}"


def token(base: str, app: dict, **fields) -> requests.Response:
    credentials = {"client_id": app["client_id"], "client_secret": app["client_secret"]}
    return requests.post(f"{base}/oauth/token", data={**credentials, **fields})


def pkce_pair() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_registering_an_app_answers_its_credentials_and_json_works_too(daphne_server):
    app = register(daphne_server, website="https://app.example/").json()
    assert app["name"] == "an app"
    assert app["website"] == "https://app.example/"
    assert app["redirect_uri"] == REDIRECT
    assert app["scopes"] == ["read", "write"]
    assert app["client_id"] and app["client_secret"]
    as_json = requests.post(
        f"{daphne_server}/api/v1/apps",
        json={"client_name": "toot-like", "redirect_uris": "urn:ietf:wg:oauth:2.0:oob"},
    )
    assert as_json.status_code == 200
    assert as_json.json()["scopes"] == ["read"]


def test_bad_registrations_are_refused_with_what_is_wrong(daphne_server):
    cases = {
        "client_name": ("", "client_name"),
        "redirect_uris": ("javascript:alert(1)", "not an http(s) URL"),
        # push is granted (Web Push); admin scopes are not.
        "scopes": ("read admin:read", "'admin:read' is not supported"),
    }
    for field, (value, says) in cases.items():
        answer = register(daphne_server, **{field: value})
        assert answer.status_code == 422, field
        assert says in answer.json()["error"]


def test_the_code_flow_with_pkce_gives_a_token_only_to_the_verifier(daphne_server, person):
    person("alice")
    app = register(daphne_server).json()
    verifier, challenge = pkce_pair()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    url = authorize_url(
        daphne_server, app, code_challenge=challenge, code_challenge_method="S256", state="xyz"
    )
    code = authorise(session, url)
    common = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
    wrong = token(daphne_server, app, **common, code_verifier=pkce_pair()[0])
    assert wrong.status_code == 400
    # A refused exchange burns the code, as RFC 6749 asks: a new one is needed.
    code = authorise(session, url)
    issued = token(daphne_server, app, **{**common, "code": code}, code_verifier=verifier)
    assert issued.status_code == 200, issued.text
    body = issued.json()
    assert body["token_type"] == "Bearer" and body["scope"] == "read write"
    me = requests.get(
        f"{daphne_server}/api/v1/accounts/verify_credentials",
        headers={"Authorization": f"Bearer {body['access_token']}"},
    )
    assert me.json()["username"] == "alice"


def test_asking_for_more_than_the_app_registered_is_refused(daphne_server, person):
    person("alice")
    app = register(daphne_server, scopes="read").json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    answer = session.get(
        authorize_url(daphne_server, app, scope="read write"), allow_redirects=False
    )
    assert answer.status_code == 302
    assert parse_qs(urlsplit(answer.headers["Location"]).query)["error"] == ["invalid_scope"]


def test_denying_consent_sends_the_app_away_without_a_code(daphne_server, person):
    person("alice")
    app = register(daphne_server).json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    answer = consent(session, authorize_url(daphne_server, app), allow=False)
    assert answer.status_code == 302
    query = parse_qs(urlsplit(answer.headers["Location"]).query)
    assert query["error"] == ["access_denied"] and "code" not in query


def test_a_visitor_is_sent_to_log_in_before_the_consent_page(daphne_server):
    app = register(daphne_server).json()
    answer = requests.get(authorize_url(daphne_server, app), allow_redirects=False)
    assert answer.status_code == 302
    assert answer.headers["Location"].startswith("/accounts/login/?next=")


def test_client_credentials_give_an_app_token_for_app_calls_only(daphne_server):
    app = register(daphne_server).json()
    issued = token(daphne_server, app, grant_type="client_credentials", scope="read")
    assert issued.status_code == 200, issued.text
    headers = {"Authorization": f"Bearer {issued.json()['access_token']}"}
    verified = requests.get(f"{daphne_server}/api/v1/apps/verify_credentials", headers=headers)
    assert verified.json()["name"] == "an app"
    public = requests.get(f"{daphne_server}/api/v1/timelines/public", headers=headers)
    assert public.status_code == 200 and public.json() == []
    # Searches count against an app token's address: it has no account.
    found = requests.get(f"{daphne_server}/api/v2/search?q=redis", headers=headers)
    assert found.status_code == 200, found.text
    home = requests.get(f"{daphne_server}/api/v1/timelines/home", headers=headers)
    assert home.status_code == 422
    assert home.json() == {"error": "This method requires an authenticated user"}


def test_calls_without_a_valid_token_are_401(daphne_server):
    for headers in ({}, {"Authorization": "Bearer not-a-token"}):
        answer = requests.get(f"{daphne_server}/api/v1/timelines/home", headers=headers)
        assert answer.status_code == 401
        assert answer.json() == {"error": "The access token is invalid"}


def test_the_settings_page_lists_authorised_apps_and_revokes_them(daphne_server, person):
    person("alice")
    app = register(daphne_server, client_name="Tooter").json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    code = authorise(session, authorize_url(daphne_server, app))
    grant = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
    access = token(daphne_server, app, **grant).json()["access_token"]
    headers = {"Authorization": f"Bearer {access}"}
    page = session.get(f"{daphne_server}/accounts/settings/").text
    assert "Tooter" in page and "read write" in page
    revoke = f"{daphne_server}/oauth/apps/{app['id']}/revoke/"
    answer = session.post(
        revoke, data={"csrfmiddlewaretoken": session.cookies["csrftoken"]}, allow_redirects=False
    )
    assert answer.status_code == 302
    assert "Tooter" not in session.get(f"{daphne_server}/accounts/settings/").text
    home = requests.get(f"{daphne_server}/api/v1/timelines/home", headers=headers)
    assert home.status_code == 401
    again = session.post(revoke, data={"csrfmiddlewaretoken": session.cookies["csrftoken"]})
    assert again.status_code == 404


def exchanged_code(daphne_server, person) -> tuple[dict, requests.Session, dict, dict]:
    """Alice's app, her signed-in session, the grant of a code she authorised and the
    tokens its first exchange gave."""
    person("alice")
    app = register(daphne_server).json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    code = authorise(session, authorize_url(daphne_server, app))
    grant = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
    return app, session, grant, token(daphne_server, app, **grant).json()


def test_a_refresh_token_gives_a_new_access_token(daphne_server, person):
    app, _, _, first = exchanged_code(daphne_server, person)
    refreshed = token(
        daphne_server, app, grant_type="refresh_token", refresh_token=first["refresh_token"]
    )
    assert refreshed.status_code == 200, refreshed.text
    access = refreshed.json()["access_token"]
    assert access != first["access_token"]
    me = requests.get(
        f"{daphne_server}/api/v1/accounts/verify_credentials",
        headers={"Authorization": f"Bearer {access}"},
    )
    assert me.json()["username"] == "alice"


def test_a_replayed_code_is_refused_and_revokes_every_token_it_issued(daphne_server, person):
    """RFC 6749 4.1.2: a code used twice is refused, and the tokens it gave (and those
    refreshed from them) are revoked; another code's token of the same app stays valid."""
    app, session, grant, first = exchanged_code(daphne_server, person)
    refreshed = token(
        daphne_server, app, grant_type="refresh_token", refresh_token=first["refresh_token"]
    ).json()
    other_code = authorise(session, authorize_url(daphne_server, app))
    other = token(daphne_server, app, **{**grant, "code": other_code}).json()

    def me(access: str) -> int:
        answer = requests.get(
            f"{daphne_server}/api/v1/accounts/verify_credentials",
            headers={"Authorization": f"Bearer {access}"},
        )
        return answer.status_code

    # Each checked once, so the check is cached as a real client's would be.
    assert [me(refreshed["access_token"]), me(other["access_token"])] == [200, 200]
    replay = token(daphne_server, app, **grant)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert [me(first["access_token"]), me(refreshed["access_token"])] == [401, 401]
    again = token(
        daphne_server, app, grant_type="refresh_token", refresh_token=refreshed["refresh_token"]
    )
    assert again.status_code == 400
    assert me(other["access_token"]) == 200


def test_the_consent_pages_policy_lets_its_form_lead_to_the_apps_origin_only(daphne_server, person):
    person("alice")
    app = register(daphne_server, redirect_uris=f"{REDIRECT} urn:ietf:wg:oauth:2.0:oob").json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    policy = session.get(authorize_url(daphne_server, app)).headers["Content-Security-Policy"]
    assert "form-action 'self' http://app.example;" in policy
    assert "script-src 'self';" in policy
    oob = authorize_url(daphne_server, app, redirect_uri="urn:ietf:wg:oauth:2.0:oob")
    assert "form-action 'self';" in session.get(oob).headers["Content-Security-Policy"]
