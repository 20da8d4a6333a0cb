"""Every error under /api/ and /oauth/ is JSON, never one of the site's pages: each
status the client API answers walked through ({"error": ...}; under /oauth/ OAuth 2's
{"error": code, "error_description": words}), from the views, Django's own handlers
(an unknown path, a wrong method, a bad host, a CSRF failure), the rate limits and a
Redis outage."""

import pytest
from django.test import Client

from socialsite.tests.test_error_pages import own_redis  # noqa: F401 (a fixture)
from timeline.posting.services import post_status
from timeline.reactions.services import like


def is_api_error(response, status: int) -> bool:
    body = response.json()
    return (
        response.status_code == status
        and response["Content-Type"] == "application/json"
        and isinstance(body.get("error"), str)
        and body["error"] != ""
    )


def is_oauth_error(response, status: int, code: str) -> bool:
    body = response.json()
    return (
        is_api_error(response, status)
        and body["error"] == code
        and isinstance(body.get("error_description"), str)
        and body["error_description"] != ""
    )


def test_the_api_answers_each_status_as_json(alice, bob, api_as, token_for, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "anonymous_reads": (1, 60)}
    visitor = Client(raise_request_exception=False)
    as_alice = api_as(alice)
    like(bob.uid, post_status(alice.uid, "hello"))
    (liked,) = as_alice("get", "/api/v1/notifications")[1]
    walked = {
        # A request for a host the site isn't: Django's 400, before any view.
        400: visitor.get("/api/v1/instance", HTTP_HOST="evil.example"),
        401: visitor.get("/api/v1/notifications"),
        403: api_as(alice, "read")("post", f"/api/v1/notifications/{liked['id']}/dismiss")[2],
        404: visitor.post("/api/v1/no/such/thing", {"a": 1}),
        405: visitor.delete("/api/v1/timelines/home"),
        410: visitor.get("/api/v1/search?q=x"),
        422: as_alice("get", "/api/v1/notifications?max_id=abc")[2],
    }
    for status, response in walked.items():
        assert is_api_error(response, status), (status, response.content)
    assert walked[405]["Allow"] == "GET"
    assert "/api/v2/search" in walked[410].json()["error"]
    assert "Record not found" in walked[404].json()["error"]
    for path in ("/api/v2/nothing", "/api/", "/api/v1/notifications/1/2/3"):
        assert is_api_error(visitor.get(path), 404), path
    # Over a limit: 429 with Retry-After (a made-up token reads as a visitor).
    made_up = {"HTTP_AUTHORIZATION": "Bearer made-up"}
    answers = [visitor.get("/api/v1/timelines/public", **made_up) for _ in range(2)]
    assert is_api_error(answers[-1], 429) and int(answers[-1]["Retry-After"]) > 0


def test_oauth_answers_each_status_as_oauth_json(alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "anonymous_reads": (1, 60)}
    visitor = Client(raise_request_exception=False)
    bad_grant = visitor.post(
        "/oauth/token", {"grant_type": "authorization_code", "code": "made-up"}
    )
    assert bad_grant.status_code in (400, 401) and bad_grant.json()["error"]
    assert is_oauth_error(visitor.get("/oauth/no/such/thing"), 404, "invalid_request")
    wrong_method = visitor.get("/oauth/token")
    assert is_oauth_error(wrong_method, 405, "invalid_request")
    assert "POST" in wrong_method["Allow"]
    assert is_oauth_error(
        visitor.get("/oauth/token", HTTP_HOST="evil.example"), 400, "invalid_request"
    )
    # The consent form posted without its CSRF token.
    strict = Client(enforce_csrf_checks=True, raise_request_exception=False)
    strict.force_login(alice.user)
    forged = strict.post("/oauth/authorize/", {"allow": "Authorize"})
    assert is_oauth_error(forged, 403, "access_denied")
    assert "CSRF" in forged.json()["error_description"]
    # A session cookie that is nobody's reads as a visitor, counted: over the limit, 429.
    answers = []
    for _ in range(2):
        # Set again: the site answered the first by ending the cookie.
        visitor.cookies[settings.SESSION_COOKIE_NAME] = "ended"
        answers.append(visitor.get("/oauth/authorize/"))
    assert is_oauth_error(answers[-1], 429, "temporarily_unavailable")
    assert int(answers[-1]["Retry-After"]) > 0


@pytest.mark.django_db
def test_with_redis_down_the_api_and_oauth_answer_503_json(own_redis, alice):  # noqa: F811
    visitor = Client(raise_request_exception=False)
    visitor.force_login(alice.user)
    own_redis.stop()
    api = visitor.get("/api/v1/timelines/public")
    assert is_api_error(api, 503) and api["Retry-After"]
    oauth = visitor.get("/oauth/authorize/")
    assert is_oauth_error(oauth, 503, "temporarily_unavailable") and oauth["Retry-After"]
    assert "Redis" in oauth.json()["error_description"]
