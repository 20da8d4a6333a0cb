"""Streams across server processes: two real daphne processes on one Redis, as `make
run` starts with WEB_PROCESSES=2, each reached on a port of its own so a test can choose."""

import json
import os
import re
import urllib.parse
import urllib.request
from contextlib import ExitStack

import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts.services import create_user, uid_for_login
from socialsite.servers import throwaway_daphne
from socialsite.testing.databases import subprocess_database_env
from streaming.services import create_stream_key, stream_stats
from timeline.graph.services import follow_user

from .clients import ChunkedResponse, wait_for_no_streams

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def two_daphnes(django_db_setup, django_db_blocker):
    """Two daphne processes on this run's Redis and test database: their base URLs."""
    env = {
        **os.environ,
        **subprocess_database_env(),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
    }
    with (
        throwaway_daphne(settings.VAR_DIR, env) as (a, _),
        throwaway_daphne(settings.VAR_DIR, env) as (b, _),
    ):
        yield a, b


@pytest.fixture
def sockets(redis_conn):
    """Opens WebSockets (base URL, path, query, headers); closes them after the test."""
    with ExitStack() as opened:

        def open_socket(base: str, path: str, params: dict, headers: dict | None = None):
            url = f"{base.replace('http://', 'ws://')}{path}?{urllib.parse.urlencode(params)}"
            return opened.enter_context(
                connect(url, open_timeout=10, additional_headers=headers or {})
            )

        yield open_socket
    wait_for_no_streams(redis_conn)


def post_through(base: str, cookie: str, message: str) -> None:
    """Posts `message` with the home page's form, as a browser on `base` would."""
    opener = urllib.request.build_opener()
    opener.addheaders = [("Cookie", cookie)]
    with opener.open(f"{base}/") as page:
        html = page.read().decode()
        csrf_cookie = re.search(r"csrftoken=([^;]+)", page.headers["Set-Cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    body = urllib.parse.urlencode({"message": message, "csrfmiddlewaretoken": token}).encode()
    request = urllib.request.Request(
        f"{base}/statuses/", data=body, headers={"Cookie": f"{cookie}; csrftoken={csrf_cookie}"}
    )
    with opener.open(request) as answer:  # follows the redirect home
        assert answer.status == 200
        assert message in answer.read().decode()


def next_event(socket) -> dict:
    return json.loads(socket.recv(timeout=10))


def test_a_status_posted_through_one_process_reaches_streams_and_homes_on_the_other(
    two_daphnes, sockets, make_user
):
    a, b = two_daphnes
    writer, reader = make_user("writer").cookie, make_user("reader").cookie
    follow_user(uid_for_login("reader"), uid_for_login("writer"))
    key = create_stream_key(uid_for_login("reader"), "tests")
    sample = sockets(b, "/statuses/sample.json", {"identifier": key, "percent": 100})
    home = sockets(b, "/statuses/home.json", {}, {"Cookie": reader})

    post_through(a, writer, "from process A")

    for socket in (sample, home):
        event = next_event(socket)
        assert (event["login"], event["message"]) == ("writer", "from process A")


def test_a_stream_keys_limit_holds_across_processes(two_daphnes, sockets):
    a, b = two_daphnes
    key = create_stream_key(create_user("dora", "Dora"), "tests")
    params = {"identifier": key, "percent": 100}
    limit = settings.STREAM_CONNECTIONS_PER_KEY
    for index in range(limit):  # taking turns: A, B, A...
        sockets(two_daphnes[index % 2], "/statuses/sample.json", params)
    assert stream_stats()["clients"] == limit

    for base in (a, b):
        refused = sockets(base, "/statuses/sample.json", params)
        assert "open streams" in next_event(refused)["error"]
        with pytest.raises(ConnectionClosed) as closed:
            refused.recv(timeout=10)
        assert closed.value.rcvd.code == 4429
        chunked = ChunkedResponse(base, "GET", f"/statuses/sample.json?identifier={key}")
        assert chunked.status == 429
        chunked.close()
    assert stream_stats()["clients"] == limit
