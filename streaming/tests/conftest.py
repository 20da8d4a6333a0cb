"""Fixtures: clients for the test daphne server's streaming endpoints, and a user."""

from contextlib import ExitStack
from urllib.parse import urlencode

import pytest
from websockets.sync.client import connect

from socialsite.redis import get_redis
from streaming.services import create_stream_key

from .clients import ChunkedResponse, wait_for_no_streams


@pytest.fixture
def http_stream(daphne_server):
    """Opens chunked responses on the test server; closes them after the test."""
    opened = []

    def open_response(method, path, params=None, *, form=None, **options) -> ChunkedResponse:
        query = f"?{urlencode(params)}" if params else ""
        body = urlencode(form).encode() if form else b""
        response = ChunkedResponse(daphne_server, method, path + query, body=body, **options)
        opened.append(response)
        return response

    yield open_response
    for response in opened:
        response.close()
    # The next test starts with the server's streams all closed.
    wait_for_no_streams(get_redis())


@pytest.fixture
def ws_stream(daphne_server):
    """Opens WebSockets on the test server; closes them after the test."""
    ws_base = daphne_server.replace("http://", "ws://")
    with ExitStack() as opened:

        def open_socket(path: str, params: dict | None = None, **options):
            query = f"?{urlencode(params)}" if params else ""
            return opened.enter_context(connect(ws_base + path + query, open_timeout=10, **options))

        yield open_socket
    wait_for_no_streams(get_redis())


@pytest.fixture
def alice_uid(alice) -> int:
    """The root conftest's alice, by uid: what the streaming services take."""
    return alice.uid


@pytest.fixture
def alice_key(alice_uid):
    return create_stream_key(alice_uid, "tests")
