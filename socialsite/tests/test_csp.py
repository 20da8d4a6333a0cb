"""A Content-Security-Policy on every answer, one that allows no inline script or style,
and no template that would need one (the browser test, test_browser_csp, loads the
pages in Chromium and counts the violations)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from socialsite import ratelimit
from socialsite.middleware import policy_text
from timeline.lists import services as lists
from timeline.posting import services as posting

ROOT = Path(settings.BASE_DIR)
# Where the project's templates are: Jinja2 pages, and the admin's Django templates.
TEMPLATE_FOLDERS = ["jinja2", "templates", "*/templates"]
# What a policy without 'unsafe-inline' refuses, as markup: a <script> holding code, a
# <style> element, a style attribute, an event handler attribute, a javascript: URL.
INLINE = {
    "inline script": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I | re.S),
    "event handler": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I | re.S),
    "javascript: URL": re.compile(r"javascript:", re.I),
}


def templates() -> list[Path]:
    found = [path for folder in TEMPLATE_FOLDERS for path in ROOT.glob(f"{folder}/**/*.html")]
    assert len(found) > 50, found
    return sorted(found)


def test_no_template_holds_what_the_policy_refuses():
    offending = [
        f"{path.relative_to(ROOT)}: {kind}"
        for path in templates()
        for kind, pattern in INLINE.items()
        if pattern.search(path.read_text())
    ]
    assert offending == []


def patterns(found: list, prefix: str = "") -> list[str]:
    """Every address pattern of the site, as text (routes and regular expressions)."""
    every = []
    for entry in found:
        if isinstance(entry, URLResolver):
            every += patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            every.append(prefix + str(entry.pattern))
    return every


def address(pattern: str, samples: dict[str, str]) -> str:
    """`pattern` with each of its parameters given its sample (by name)."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: samples.get(m[1], "1"), pattern)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: samples.get(m[1], "1"), path)
    return "/" + path.replace("^", "").replace("/?$", "/").replace("$", "")


@pytest.mark.django_db
def test_every_address_answers_with_a_policy_allowing_no_inline_script_or_style(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    status = posting.post_status(bob.uid, "hello #csp")
    list_id = lists.create_list(alice.uid, "Friends")
    samples = {
        "login": "bob",
        "uid": str(bob.uid),
        "account_id": str(bob.uid),
        "status_id": str(status),
        "list_id": str(list_id),
        "tag": "csp",
        "path": "avatars/missing.webp",
        "action": "suspend",
        "app_label": "auth",
    }
    staff = User.objects.create_user("operator", is_staff=True, is_superuser=True)
    visitor, operator = Client(raise_request_exception=False), Client(raise_request_exception=False)
    operator.force_login(staff)
    alice.client.raise_request_exception = False
    addresses = sorted({address(p, samples) for p in patterns(get_resolver().url_patterns)})
    assert len(addresses) > 150, addresses
    unguarded = []
    for path in addresses:
        for client in (visitor, alice.client, operator):
            policy = client.get(path).get("Content-Security-Policy", "")
            directives = dict(d.strip().partition(" ")[::2] for d in policy.split(";"))
            if (
                directives.get("script-src") != "'self'"
                or directives.get("style-src") != "'self'"
                or directives.get("object-src") != "'none'"
            ):
                unguarded.append(path)
    assert unguarded == []


def test_pictures_and_videos_may_come_from_the_media_origins_named(client, settings):
    settings.MEDIA_ORIGINS = ["https://media.example"]
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    assert "img-src 'self' data: https://media.example;" in policy
    assert "media-src 'self' https://media.example;" in policy


def test_a_media_origin_that_is_no_origin_is_refused():
    env = {**os.environ, "SOCIALSITE_MEDIA_ORIGINS": "https://ok.example 'unsafe-inline'"}
    code = "from django.conf import settings; settings.MEDIA_ORIGINS"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "SOCIALSITE_MEDIA_ORIGINS holds origins such as" in done.stderr


@pytest.mark.django_db(transaction=True)
def test_answers_made_before_django_carry_the_policy_too(daphne_server):
    """daphne's answers that never reach Django's middleware (a flood of failed logins
    refused early) get it from the ASGI application."""
    count, _ = settings.RATE_LIMITS["login_failures_per_ip"]
    for _ in range(count):
        ratelimit.wait_seconds("login_failures_per_ip", "ip:127.0.0.1")
    login = f"{daphne_server}/accounts/login/"
    refused = requests.post(login, data={"username": "x", "password": "y"}, timeout=10)
    assert refused.status_code == 429
    assert refused.headers["Content-Security-Policy"] == policy_text({})
    ratelimit.forget("login_failures_per_ip", "ip:127.0.0.1")
