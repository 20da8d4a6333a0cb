"""The daphne the site runs on (socialsite.daphne_server), as a real process: pages,
and the deadlines that cut off slow clients (slowloris) without cutting off streams."""

import os
import socket
import time
import urllib.request

import pytest
from django.conf import settings
from django.test import override_settings
from websockets.sync.client import connect

from accounts.services import create_user
from socialsite.servers import throwaway_daphne
from socialsite.testing.databases import subprocess_database_env
from streaming.services import create_stream_key

HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 2.0
BODY_MIN_RATE = 1000.0
# What a loaded machine may add to a deadline before the server acts on it.
SLACK = 5.0
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\n"


@pytest.mark.django_db(transaction=True)
def test_daphne_serves_the_admin_login_page(daphne_server):
    with urllib.request.urlopen(f"{daphne_server}/admin/login/") as response:
        assert response.status == 200
        assert b"Django" in response.read()


@pytest.fixture(scope="module")
def strict_daphne(django_db_setup, django_db_blocker):
    """A daphne with short deadlines for slow clients: (host, port)."""
    env = {
        **os.environ,
        **subprocess_database_env(),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
    }
    deadlines = override_settings(
        HTTP_HEADER_TIMEOUT=HEADER_TIMEOUT,
        HTTP_BODY_TIMEOUT=BODY_TIMEOUT,
        HTTP_BODY_MIN_RATE=BODY_MIN_RATE,
    )
    with deadlines, throwaway_daphne(settings.VAR_DIR, env) as (base, _):
        host, port = base.removeprefix("http://").split(":")
        yield host, int(port)


def opened(address: tuple[str, int], sent: bytes = b"") -> socket.socket:
    sock = socket.create_connection(address, timeout=HEADER_TIMEOUT + SLACK)
    sock.sendall(sent)
    return sock


def answer_and_close(sock: socket.socket) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that
    took."""
    started, received = time.monotonic(), b""
    while chunk := sock.recv(65536):
        received += chunk
    return received, time.monotonic() - started


def test_half_a_request_line_is_answered_408_and_closed_after_the_header_timeout(strict_daphne):
    with opened(strict_daphne, b"GET /accounts/lo") as sock:
        received, took = answer_and_close(sock)
    assert received.startswith(REQUEST_TIMEOUT)
    assert HEADER_TIMEOUT - 0.5 < took < HEADER_TIMEOUT + SLACK


def test_a_connection_that_sends_nothing_is_closed_after_the_header_timeout(strict_daphne):
    with opened(strict_daphne) as sock:
        received, took = answer_and_close(sock)
    assert received == b""
    assert HEADER_TIMEOUT - 0.5 < took < HEADER_TIMEOUT + SLACK


def test_headers_sent_a_byte_at_a_time_are_cut_off_though_the_bytes_keep_coming(strict_daphne):
    started = time.monotonic()
    with opened(strict_daphne, b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n") as sock:
        sock.settimeout(0.2)
        received = b""
        # A byte every 0.2 s: an idle timeout, which each byte starts again, never fires.
        while time.monotonic() - started < HEADER_TIMEOUT + SLACK:
            try:
                sock.sendall(b"X")
                received = sock.recv(65536)
                break
            except TimeoutError:
                continue
            except OSError:  # closed while we sent
                break
    assert received.startswith(REQUEST_TIMEOUT)
    assert time.monotonic() - started < HEADER_TIMEOUT + SLACK


def test_a_body_sent_too_slowly_is_answered_408_and_closed_after_the_body_timeout(strict_daphne):
    head = b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n"
    with opened(strict_daphne, head + b"login=someone") as sock:
        received, took = answer_and_close(sock)
    assert received.startswith(REQUEST_TIMEOUT)
    assert BODY_TIMEOUT - 0.5 < took < BODY_TIMEOUT + SLACK


def test_a_steady_body_above_the_minimum_rate_may_take_longer_than_the_body_timeout(
    strict_daphne,
):
    chunk, chunks = b"a" * int(2 * BODY_MIN_RATE), 3  # each puts the deadline off 2 s
    head = (
        b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"Content-Length: %d\r\n\r\n" % (len(chunk) * chunks)
    )
    started = time.monotonic()
    with opened(strict_daphne, head) as sock:
        for _ in range(chunks):
            sock.sendall(chunk)
            time.sleep(1)
        received, _ = answer_and_close(sock)
    assert time.monotonic() - started > BODY_TIMEOUT
    # Served: Django's answer to a form without its CSRF token.
    assert received.startswith(b"HTTP/1.1 403 Forbidden\r\n"), received[:200]


def test_a_kept_alive_connection_is_served_then_closed_once_idle_past_the_header_timeout(
    strict_daphne,
):
    with opened(strict_daphne, b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") as sock:
        assert sock.recv(12) == b"HTTP/1.1 200"
        time.sleep(0.5)  # the page's rest has come by now
        sock.recv(1_000_000)
        received, took = answer_and_close(sock)
    assert received == b""
    assert took < HEADER_TIMEOUT + SLACK


@pytest.fixture
def stream_key():
    return create_stream_key(create_user("reader", "Reader"))


def test_a_chunked_stream_outlives_the_header_timeout(strict_daphne, stream_key):
    request = (
        f"GET /statuses/sample.json?identifier={stream_key} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    with opened(strict_daphne, request.encode()) as sock:
        assert sock.recv(12) == b"HTTP/1.1 200"
        time.sleep(HEADER_TIMEOUT + 1)
        # The stream's heartbeats still come: the connection is open.
        assert sock.recv(65536)


def test_a_websocket_outlives_the_header_timeout(strict_daphne, stream_key):
    host, port = strict_daphne
    url = f"ws://{host}:{port}/statuses/sample.json?identifier={stream_key}"
    with connect(url, open_timeout=10) as websocket:
        time.sleep(HEADER_TIMEOUT + 1)
        assert websocket.ping().wait(timeout=10)
