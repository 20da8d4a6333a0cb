"""Mobile sign-in over HTTP against daphne: an app's own scheme as its redirect URI
(myapp://oauth, as Ivory, Tusky and Ice Cubes register), the code handed over by
redirect and exchanged for a token; schemes that would run in the browser refused;
the out-of-band redirect still works."""

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from .clients import authorise, consent, logged_in_session
from .conftest import PASSWORD

MOBILE = "myapp://oauth"


def register(base: str, uris: str) -> requests.Response:
    form = {"client_name": "a phone app", "redirect_uris": uris, "scopes": "read write"}
    return requests.post(f"{base}/api/v1/apps", data=form)


def authorize_url(base: str, app: dict, redirect_uri: str) -> str:
    query = {
        "client_id": app["client_id"],
        "response_type": "code",
        "redirect_uri": redirect_uri,
        "scope": "read write",
    }
    return f"{base}/oauth/authorize?{urlencode(query)}"


def exchange(base: str, app: dict, code: str, redirect_uri: str) -> requests.Response:
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "client_id": app["client_id"],
        "client_secret": app["client_secret"],
    }
    return requests.post(f"{base}/oauth/token", data=form)


@pytest.mark.parametrize("redirect_uri", [MOBILE, "com.example.app:/oauth2redirect"])
def test_an_apps_own_scheme_gets_the_code_by_redirect(daphne_server, person, redirect_uri):
    person("alice")
    app = register(daphne_server, redirect_uri).json()
    assert app["redirect_uris"] == [redirect_uri]
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    answer = consent(session, authorize_url(daphne_server, app, redirect_uri))
    assert answer.status_code == 302
    location = answer.headers["Location"]
    assert location.startswith(redirect_uri + "?")
    code = parse_qs(urlsplit(location).query)["code"][0]
    granted = exchange(daphne_server, app, code, redirect_uri)
    assert granted.status_code == 200, granted.text
    token = granted.json()["access_token"]
    me = requests.get(
        f"{daphne_server}/api/v1/accounts/verify_credentials",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert me.json()["username"] == "alice"


def test_the_consent_pages_policy_lets_its_form_lead_to_the_apps_scheme(daphne_server, person):
    person("alice")
    app = register(daphne_server, MOBILE).json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    page = session.get(authorize_url(daphne_server, app, MOBILE))
    policy = page.headers["Content-Security-Policy"]
    assert "form-action 'self' myapp:" in policy


def test_a_scheme_the_app_didnt_register_gets_no_code(daphne_server, person):
    person("alice")
    app = register(daphne_server, MOBILE).json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    page = session.get(authorize_url(daphne_server, app, "otherapp://oauth"))
    assert "code=" not in page.headers.get("Location", "")
    assert "otherapp://" not in page.text or page.status_code >= 400


@pytest.mark.parametrize(
    "uri",
    [
        "javascript:alert(1)",
        "JavaScript://x%0aalert(1)",
        "data:text/html,hi",
        "file:///etc/passwd",
        "vbscript:msgbox",
        "myapp:",
        "1app://oauth",
        "http:///nohost",
    ],
)
def test_schemes_that_run_in_the_browser_are_refused(daphne_server, uri):
    answer = register(daphne_server, f"{MOBILE} {uri}")
    assert answer.status_code == 422
    assert "not an http(s) URL" in answer.json()["error"]


def test_the_out_of_band_redirect_still_shows_the_code(daphne_server, person):
    person("alice")
    oob = "urn:ietf:wg:oauth:2.0:oob"
    app = register(daphne_server, f"{MOBILE} {oob}").json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    code = authorise(session, authorize_url(daphne_server, app, oob))
    assert exchange(daphne_server, app, code, oob).status_code == 200


def test_mobile_sign_in_with_mastodon_py(daphne_server, person):
    from mastodon import Mastodon

    person("alice")
    scopes = ["read", "write"]
    client_id, secret = Mastodon.create_app(
        "a phone app", scopes=scopes, redirect_uris=MOBILE, api_base_url=daphne_server
    )
    api = Mastodon(client_id=client_id, client_secret=secret, api_base_url=daphne_server)
    url = api.auth_request_url(scopes=scopes, redirect_uris=MOBILE)
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    answer = consent(session, url)
    assert answer.headers["Location"].startswith(f"{MOBILE}?")
    code = parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]
    api.log_in(code=code, redirect_uri=MOBILE, scopes=scopes)
    assert api.account_verify_credentials().username == "alice"


def test_a_loopback_redirect_may_come_back_on_any_port(daphne_server, person):
    """RFC 8252 7.3: a desktop app registers http://127.0.0.1/... and listens on a port
    it picks at sign-in."""
    person("alice")
    app = register(daphne_server, "http://127.0.0.1/callback").json()
    session = logged_in_session(daphne_server, "alice", PASSWORD)
    asked = "http://127.0.0.1:53123/callback"
    answer = consent(session, authorize_url(daphne_server, app, asked))
    assert answer.status_code == 302 and answer.headers["Location"].startswith(f"{asked}?code=")
    code = parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]
    assert exchange(daphne_server, app, code, asked).status_code == 200
