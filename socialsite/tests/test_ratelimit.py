"""The rate limiter itself, on the real Redis: GCRA's count-in-a-window, asking
without counting, starting afresh, and one key per subject that expires."""

import inspect
import json
import os
import re
import urllib.error
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.http import HttpResponse
from django.test import override_settings

from socialsite import keys, ratelimit
from socialsite.servers import throwaway_daphne
from socialsite.testing.databases import subprocess_database_env
from socialsite.testing.waits import wait_for

pytestmark = pytest.mark.usefixtures("redis_conn")


@override_settings(RATE_LIMITS={"posts": (3, 60)})
def test_count_actions_pass_then_the_next_is_refused_for_a_share_of_the_window():
    assert [ratelimit.wait_seconds("posts", "ip:1") for _ in range(3)] == [0, 0, 0]
    waiting = ratelimit.wait_seconds("posts", "ip:1")
    # 3 in 60 s: the allowance comes back one action every 20 s.
    assert 19 <= waiting <= 20
    with pytest.raises(ratelimit.RateLimited) as refused:
        ratelimit.enforce("posts", "ip:1")
    assert refused.value.retry_after == waiting
    assert str(refused.value) == "Too many posts for now: try again in 20 seconds."


@override_settings(RATE_LIMITS={"posts": (1, 60)})
async def test_an_async_view_stays_async_under_its_limit(rf):
    @ratelimit.rate_limited("posts", per=lambda request: "ip:9")
    async def view(request):
        return HttpResponse("done")

    assert inspect.iscoroutinefunction(view)
    assert (await view(rf.get("/"))).status_code == 200  # only POSTs count
    assert (await view(rf.post("/"))).status_code == 200
    refused = await view(rf.post("/"))
    assert refused.status_code == 429 and 59 <= int(refused["Retry-After"]) <= 60


def test_every_limit_says_what_it_counts(settings):
    assert set(ratelimit.COUNTS) == set(settings.RATE_LIMITS)


def test_every_limit_is_in_the_operators_table_with_its_default(settings):
    text = (settings.BASE_DIR / "docs" / "operations.md").read_text()
    table = dict(re.findall(r"^\| `([A-Z_]+)` \| [^|]+ \| `(\d+/\d+)` \|", text, re.MULTILINE))
    limits = settings.RATE_LIMITS
    shipped = {name.upper(): f"{count}/{per}" for name, (count, per) in limits.items()}
    # The test run raises this one (socialsite.testing.plugin).
    shipped["ANONYMOUS_READS"] = settings.ANONYMOUS_READS_DEFAULT
    assert table == shipped


@override_settings(RATE_LIMITS={"test": (2, 60)})
def test_subjects_and_limits_are_counted_apart():
    assert ratelimit.wait_seconds("test", "ip:1") == 0
    assert ratelimit.wait_seconds("test", "ip:1") == 0
    assert ratelimit.wait_seconds("test", "ip:1") > 0
    assert ratelimit.wait_seconds("test", "ip:2") == 0


@override_settings(RATE_LIMITS={"test": (1, 60)})
def test_asking_without_recording_counts_nothing():
    for _ in range(5):
        assert ratelimit.wait_seconds("test", "ip:1", record=False) == 0
    assert ratelimit.wait_seconds("test", "ip:1") == 0
    assert ratelimit.wait_seconds("test", "ip:1", record=False) > 0


@override_settings(RATE_LIMITS={"test": (1, 60)})
def test_forget_starts_a_subject_afresh():
    ratelimit.wait_seconds("test", "login:alice")
    assert ratelimit.wait_seconds("test", "login:alice", record=False) > 0
    ratelimit.forget("test", "login:alice")
    assert ratelimit.wait_seconds("test", "login:alice") == 0


@override_settings(RATE_LIMITS={"test": (2, 2)})
def test_a_limit_lifts_by_itself_within_its_window_and_its_key_expires(redis_conn):
    ratelimit.wait_seconds("test", "ip:1")
    ratelimit.wait_seconds("test", "ip:1")
    # The third waits for the 1 s interval, less up to a second of a slow machine's time.
    assert ratelimit.wait_seconds("test", "ip:1") == 1
    key = keys.rate_limit("test", "ip:1")
    assert 0 < redis_conn.pttl(key) <= 2000
    wait_for(lambda: ratelimit.wait_seconds("test", "ip:1") == 0, timeout=5)
    wait_for(lambda: not redis_conn.exists(key), timeout=5)


def test_the_minutes_are_rounded_up_in_the_message():
    assert "try again in 2 minutes" in str(ratelimit.RateLimited("posts", 61))
    assert "try again in 1 second." in str(ratelimit.RateLimited("posts", 1))


async def answered_by(app, method: str, path: str, *headers: tuple[bytes, bytes]) -> int:
    """The status `app` (an ASGI app) answers a request from 10.9.9.9 with."""
    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "headers": [*headers]}
    await app({**scope, "client": ("10.9.9.9", 1)}, None, send)
    return sent[0]["status"]


async def django(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b""})


@override_settings(RATE_LIMITS={"anonymous_reads": (1, 60)}, RATE_LIMITED_DELAY_SECONDS=0)
async def test_only_reads_offering_no_credential_are_counted_before_django():
    app = ratelimit.refuse_anonymous_reads(django)
    assert await answered_by(app, "GET", "/timeline/") == 200
    assert await answered_by(app, "GET", "/timeline/") == 429
    assert await answered_by(app, "HEAD", "/api/v1/timelines/public") == 429
    # A session cookie for the pages, a token for the API: Django tells if they are someone's.
    assert await answered_by(app, "GET", "/timeline/", (b"cookie", b"a=1; sessionid=x")) == 200
    assert await answered_by(app, "GET", "/api/v1/instance", (b"authorization", b"Bearer x")) == 200
    # Not a credential: an empty session cookie, a token for a page, a session for the API.
    assert await answered_by(app, "GET", "/timeline/", (b"cookie", b"sessionid=; a=1")) == 429
    assert await answered_by(app, "GET", "/timeline/", (b"authorization", b"Bearer x")) == 429
    assert await answered_by(app, "GET", "/api/v1/instance", (b"cookie", b"sessionid=x")) == 429
    # Writes have limits of their own; media files are files.
    assert await answered_by(app, "POST", "/timeline/") == 200
    assert await answered_by(app, "GET", "/media/avatars/1.webp") == 200


def read(url: str, **headers: str) -> tuple[int, dict, str]:
    """GET `url`: its status, headers and body, a 4xx as any answer."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


@pytest.fixture(scope="module")
def daphne_with_default_read_limit(django_db_setup, django_db_blocker):
    """A daphne process with the visitors' reads limit as shipped (the run raises it)."""
    env = {
        **os.environ,
        **subprocess_database_env(),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
    }
    env.pop("RATE_LIMIT_ANONYMOUS_READS", None)
    with throwaway_daphne(django_settings.VAR_DIR, env) as (base, _):
        yield base


@pytest.mark.django_db(transaction=True)
def test_visitors_reads_past_the_default_limit_are_refused_before_django(
    daphne_with_default_read_limit, make_user
):
    base = daphne_with_default_read_limit
    count = int(django_settings.ANONYMOUS_READS_DEFAULT.split("/")[0])
    answers = []
    while len(answers) < 2 * count and (not answers or answers[-1][0] == 200):
        answers.append(read(f"{base}/api/v1/timelines/public"))
    status, headers, body = answers[-1]
    # All the default's burst passes (and the few its rate gave back meanwhile).
    assert len(answers) > count and status == 429
    assert int(headers["Retry-After"]) >= 1
    assert json.loads(body) == {
        "error": "Too many pages read without logging in for now: try again in 1 second."
    }
    # The address is over for pages too, answered with the site's page (the second its
    # 429 waited gave back a few reads: 300 in 60 s is one every 0.2 s).
    pages = [read(f"{base}/timeline/")]
    while pages[-1][0] == 200 and len(pages) < 50:
        pages.append(read(f"{base}/timeline/"))
    status, headers, body = pages[-1]
    assert status == 429 and "Too many pages read without logging in" in body
    # Static files don't count; a signed-in reader from the same address reads on.
    assert read(f"{base}/static/js/pages.js")[0] == 200
    alice = make_user("alice")
    session = alice.client.cookies[django_settings.SESSION_COOKIE_NAME].value
    cookie = f"{django_settings.SESSION_COOKIE_NAME}={session}"
    assert read(f"{base}/timeline/", Cookie=cookie)[0] == 200


def test_a_session_cookie_that_is_nobodys_reads_as_a_visitor_and_is_counted(
    client, make_user, settings
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "anonymous_reads": (3, 60)}
    answers = []
    for _ in range(5):
        # As a script that ignores the answer's Set-Cookie deleting it.
        client.cookies[settings.SESSION_COOKIE_NAME] = "made-up"
        answers.append(client.get("/timeline/"))
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert 19 <= int(answers[-1]["Retry-After"]) <= 20
    # A signed-in reader from the same address reads on.
    assert make_user("alice").client.get("/timeline/").status_code == 200
    # Once the address may read again, so may the visitor (this process held it back).
    ratelimit.forget("anonymous_reads", "ip:127.0.0.1")
    client.cookies[settings.SESSION_COOKIE_NAME] = "made-up"
    assert client.get("/timeline/").status_code == 200
