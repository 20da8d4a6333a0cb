"""Driving the consent page as a person does: a requests session logged in through the
login form, which opens an authorize URL and presses Authorize (or Deny)."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import requests
from mastodon import Mastodon

HIDDEN_INPUT = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
CODE = re.compile(r'<code id="code">([^<]+)</code>')
SCOPES = ["read", "write", "follow"]


def logged_in_session(base: str, login: str, password: str) -> requests.Session:
    """A browser-like session logged in as `login` through the login page."""
    session = requests.Session()
    session.get(f"{base}/accounts/login/").raise_for_status()
    form = {
        "username": login,
        "password": password,
        "csrfmiddlewaretoken": session.cookies["csrftoken"],
    }
    answer = session.post(f"{base}/accounts/login/", data=form, allow_redirects=False)
    assert answer.status_code == 302, answer.text[:500]
    return session


def consent(session: requests.Session, url: str, *, allow: bool = True) -> requests.Response:
    """Opens the consent page at `url` and answers it; the answer, not followed."""
    page = session.get(url)
    assert page.status_code == 200, page.text[:500]
    form = {name: unescape(value) for name, value in HIDDEN_INPUT.findall(page.text)}
    if allow:
        form["allow"] = "Authorize"
    return session.post(page.url, data=form, headers={"Referer": page.url}, allow_redirects=False)


def authorise(session: requests.Session, url: str) -> str:
    """The code the consent page gives: shown on the page for the out-of-band redirect
    URI, else in the redirect's query."""
    answer = consent(session, url)
    if answer.status_code == 302:
        return parse_qs(urlsplit(answer.headers["Location"]).query)["code"][0]
    found = CODE.search(answer.text)
    assert found, answer.text[:500]
    return found[1]


def signed_in_client(base: str, login: str, password: str, scopes=SCOPES) -> Mastodon:
    """Mastodon.py registered as an app, signed in as `login` with the code flow."""
    client_id, secret = Mastodon.create_app("tests", scopes=scopes, api_base_url=base)
    api = Mastodon(client_id=client_id, client_secret=secret, api_base_url=base)
    session = logged_in_session(base, login, password)
    code = authorise(session, api.auth_request_url(scopes=scopes))
    api.log_in(code=code, scopes=scopes)
    return api
