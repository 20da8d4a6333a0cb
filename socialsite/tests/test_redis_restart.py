"""Redis restarted on a large append-only file under load: while it is down and while it
loads (LOADING), pages, the API and streams answer 503 (JSON under /api/), never 500,
and everything answers again once it has loaded. A real daphne on a real Redis."""

import contextlib
import http.client
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.test import override_settings
from redis.backoff import NoBackoff
from redis.retry import Retry
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from api.oauth import OOB, issue_token, register_app
from socialsite.embedded_redis import EmbeddedRedis
from socialsite.servers import throwaway_daphne
from socialsite.testing.databases import subprocess_database_env
from streaming.services import create_stream_key
from timeline.posting import services as posting

pytestmark = pytest.mark.django_db(transaction=True)

# Keys beside the site's that make the append-only file large: ~1 s of LOADING per
# million on an idle core (~80 MB of file).
FILLER_KEYS = 2_000_000
LOAD_THREADS = 4
SOCKETS = ("stream socket", "live socket", "api socket")


@dataclass(frozen=True)
class Answer:
    kind: str
    status: int
    content_type: str
    retry_after: str | None
    body: str
    at: float


@pytest.fixture
def site_on_an_aof():
    """A persistent (AOF) Redis of the test's own and a daphne serving the site on it;
    yields (server, base URL). This process's settings use the same server."""
    server = EmbeddedRedis(Path(tempfile.mkdtemp(prefix="socialsite-aof-")), persistent=True)
    url = server.start()
    caches = {alias: {**config, "LOCATION": url} for alias, config in settings.CACHES.items()}
    env = {
        **os.environ,
        **subprocess_database_env(),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
        "REDIS_URL": url,
    }
    try:
        with (
            override_settings(CACHES=caches),
            throwaway_daphne(server.data_dir, env) as (base, _),
        ):
            yield server, base
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


def fill_the_append_only_file(server: EmbeddedRedis) -> None:
    """FILLER_KEYS more keys, written into the append-only file (rewritten, so the file
    holds them and a restart loads them all)."""
    client = redis.Redis.from_url(server.url)
    client.execute_command("DEBUG", "POPULATE", FILLER_KEYS, "filler", 10)
    client.bgrewriteaof()
    deadline = time.monotonic() + 120
    while True:
        found = client.info("persistence")
        if not (found["aof_rewrite_in_progress"] or found["aof_rewrite_scheduled"]):
            break
        assert time.monotonic() < deadline, "the AOF rewrite never finished"
        time.sleep(0.05)


def restart(server: EmbeddedRedis, while_loading: Callable[[], None]) -> tuple[float, float]:
    """Stops the server (it writes its AOF out) and starts it again on its AOF, calling
    `while_loading` once it is seen loading; returns when it had loaded it, and (start of
    loading, end of loading) as seen by a client."""
    server.stop()
    server.process = subprocess.Popen(
        server.command(), stdin=subprocess.DEVNULL, start_new_session=True
    )
    # No retries (redis-py's own client retries LOADING with backoff; the site's don't).
    client = redis.Redis(
        unix_socket_path=str(server.socket), socket_timeout=5, retry=Retry(NoBackoff(), 0)
    )
    loading_from = loading_until = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            client.ping()
            loading_until = time.monotonic()
            break
        except redis.exceptions.BusyLoadingError:
            if loading_from is None:
                loading_from = time.monotonic()
                while_loading()
        except redis.ConnectionError:
            pass
        time.sleep(0.005)
    assert loading_from is not None and loading_until is not None, "never seen loading"
    return loading_from, loading_until


def requests(
    base: str, cookie: str, stream_key: str, csrf: tuple[str, str], token: str
) -> list[tuple]:
    """What the load asks, round robin: (kind, method, path, headers, body); a method
    "WS" opens a WebSocket."""
    form_token, csrf_cookie = csrf
    bearer = {"Authorization": f"Bearer {token}"}
    signed_in = {"Cookie": f"{cookie}; csrftoken={csrf_cookie}"}
    form = {"Content-Type": "application/x-www-form-urlencoded", "Referer": f"{base}/"}
    post = urllib.parse.urlencode({"message": "under load", "csrfmiddlewaretoken": form_token})
    login = urllib.parse.urlencode({"username": "nobody", "password": "wrong"})
    return [
        ("home page", "GET", "/", signed_in, None),
        ("public page", "GET", "/timeline/", {}, None),
        ("profile page", "GET", "/u/alice/", {}, None),
        ("api public", "GET", "/api/v1/timelines/public", {}, None),
        ("api lookup", "GET", "/api/v1/accounts/lookup?acct=alice", {}, None),
        ("api home", "GET", "/api/v1/timelines/home", bearer, None),
        ("post", "POST", "/statuses/", {**signed_in, **form}, post),
        ("stream", "GET", f"/statuses/sample.json?identifier={stream_key}", {}, None),
        ("login", "POST", "/accounts/login/", form, login),
        ("stream socket", "WS", "/statuses/sample.json", {"Cookie": cookie}, None),
        ("live socket", "WS", "/live/", {"Cookie": cookie}, None),
        ("api socket", "WS", f"/api/v1/streaming?stream=public&access_token={token}", {}, None),
    ]


def ask(base: str, kind: str, method: str, path: str, headers: dict, body) -> Answer:
    if method == "WS":
        return open_socket(base, kind, path, headers)
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        # A stream that opened streams on: its status line and headers are its answer.
        text = "" if kind == "stream" and response.status == 200 else response.read().decode()
        return Answer(
            kind,
            response.status,
            response.getheader("Content-Type", ""),
            response.getheader("Retry-After"),
            text[:300],
            time.monotonic(),
        )
    finally:
        connection.close()


def open_socket(base: str, kind: str, path: str, headers: dict) -> Answer:
    """A WebSocket's answer: its status 101 if it stays open a moment, else its close
    code (and last frame), or the HTTP status its handshake got."""
    url = base.replace("http://", "ws://") + path
    try:
        with connect(url, additional_headers=headers, open_timeout=60) as socket:
            try:
                last = socket.recv(timeout=0.3)
                socket.recv(timeout=0.3)
            except TimeoutError:
                return Answer(kind, 101, "", None, "", time.monotonic())
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                return Answer(kind, code, "", None, str(last)[:300], time.monotonic())
    except InvalidStatus as refused:
        status = refused.response.status_code
        return Answer(kind, status, "", None, "", time.monotonic())
    return Answer(kind, 101, "", None, "", time.monotonic())


@contextlib.contextmanager
def load(asked: list[tuple], base: str) -> Iterator[list[Answer]]:
    """LOAD_THREADS clients asking `asked` in turn until the block ends."""
    answers: list[Answer] = []
    stop = threading.Event()

    def client(offset: int) -> None:
        turn = offset
        while not stop.is_set():
            answers.append(ask(base, *asked[turn % len(asked)]))
            turn += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(LOAD_THREADS)]
    for thread in threads:
        thread.start()
    try:
        yield answers
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)


def csrf_of(base: str, cookie: str) -> tuple[str, str]:
    """The home page's form token and the CSRF cookie that goes with it."""
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=60)
    connection.request("GET", "/", headers={"Cookie": cookie})
    response = connection.getresponse()
    html = response.read().decode()
    csrf_cookie = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return token, csrf_cookie


def test_a_redis_restarted_on_a_large_aof_under_load_answers_503_never_500(
    site_on_an_aof, make_user
):
    server, base = site_on_an_aof
    alice = make_user("alice")
    for n in range(5):
        posting.post_status(alice.uid, f"before the restart {n}")
    app, _ = register_app("tests", OOB, "read write follow")
    token = issue_token(app, alice.user, "read write follow")
    csrf = csrf_of(base, alice.cookie)
    asked = requests(base, alice.cookie, create_stream_key(alice.uid), csrf, token)
    fill_the_append_only_file(server)

    # While it loads, one of every kind at once (beside the load, which may miss some).
    burst: list[Answer] = []
    askers = [
        threading.Thread(target=lambda request=request: burst.append(ask(base, *request)))
        for request in asked
    ]
    with load(asked, base) as answers:
        time.sleep(1)
        loading_from, loading_until = restart(server, lambda: [t.start() for t in askers])
        for asker in askers:
            asker.join(timeout=120)
        time.sleep(2)  # and a while after: every kind comes back
    answers += burst

    # A server error: a 5xx but 503, or a WebSocket closed as one (1011) or cut (1006).
    served_500 = [a for a in answers if a.status in (500, 502, 504, 1006, 1011)]
    assert served_500 == [], (Counter(a.kind for a in served_500), served_500[:3])
    unavailable = [a for a in answers if a.status in (503, 4503)]
    while_loading = [a for a in unavailable if loading_from <= a.at <= loading_until + 0.5]
    assert while_loading, (loading_until - loading_from, len(answers), len(unavailable))
    # An answer given before Redis had loaded can only say it is unavailable.
    early = [a for a in burst if a.at < loading_until and a.status not in (503, 4503)]
    assert early == [], early
    # Most kinds are answered while it loads (here: every one, in 2-6 s of loading).
    said_so = {a.kind for a in burst if a.status in (503, 4503)}
    assert len(said_so) >= len(asked) // 2, said_so
    for answer in unavailable:
        if answer.kind in SOCKETS:
            assert json.loads(answer.body)["error"], answer
            continue
        if answer.kind.startswith("api"):
            assert answer.content_type == "application/json", answer
            assert "Redis" in json.loads(answer.body)["error"]
        if answer.kind != "stream":
            assert answer.retry_after, answer
    # Once loaded, every kind of request is answered again: a post by its redirect (or
    # the posting limit), the login (its early check passed) by its CSRF refusal.
    # A stream key's places held when Redis went down expire a few heartbeats later: 429.
    expected = {
        "post": (302, 429),
        "login": (403, 429),
        "stream": (200, 429),
        "stream socket": (101, 4429),
        **dict.fromkeys(SOCKETS[1:], (101,)),
    }
    for kind, *request in asked:
        answer = ask(base, kind, *request)
        assert answer.status in expected.get(kind, (200,)), (kind, answer)
