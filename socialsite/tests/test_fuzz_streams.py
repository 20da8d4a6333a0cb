"""Fuzzing the streaming API's chunked HTTP and WebSocket endpoints, on a real daphne,
with the hostile input of the site's fuzz (socialsite/tests/test_fuzz.py): no answer is
a 5xx, and a refused stream changes no key in Redis and closes with a code."""

import pytest
from django.conf import settings as django_settings
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from streaming.services import create_stream_key, stream_stats
from streaming.streams import STREAM_METHODS
from streaming.tests.clients import ChunkedResponse, last_words, wait_for_no_streams

from .test_fuzz import (
    FORM,
    FUZZ_SETTINGS,
    HUGE_BODIES,
    METHODS,
    STREAM_EXAMPLES,
    changed_keys,
    numbers,
    odd_text,
    redis_snapshot,
)

# The streaming API: its chunked HTTP and WebSocket endpoints on a real daphne. A stream
# that opens streams forever: it is closed at once, and only refusals are checked.

# Not shrunk: a failing stream example can wait out a timeout, and shrinking runs
# hundreds of them.
STREAM_FUZZ_SETTINGS = settings(
    FUZZ_SETTINGS, max_examples=STREAM_EXAMPLES, phases=[Phase.explicit, Phase.generate]
)
STREAM_PARAMETER_NAMES = ["identifier", "percent", "track", "follow", "location"]


class StreamingSite:
    """A member with a stream key and a session, on the test daphne server."""

    def __init__(self, make_user, base_url: str) -> None:
        alice = make_user("alice")
        make_user("bob")
        self.base_url = base_url
        self.key = create_stream_key(alice.uid, "tests")
        self.cookie = f"sessionid={alice.client.cookies['sessionid'].value}"
        port = base_url.rsplit(":", 1)[1]
        self.log = django_settings.VAR_DIR / f"daphne-{port}.log"
        self.log_start = self.log.stat().st_size

    def new_log_lines(self) -> str:
        with open(self.log, errors="replace") as log:
            log.seek(self.log_start)
            return log.read()


@pytest.fixture
def streaming_site(make_user, daphne_server, transactional_db) -> StreamingSite:
    return StreamingSite(make_user, daphne_server)


def mostly(common: st.SearchStrategy, odd: st.SearchStrategy) -> st.SearchStrategy:
    """`common` three times in four, so that most requests get past the first check."""
    return st.one_of(common, common, common, odd)


def stream_requests(streaming_site: StreamingSite, stream: str | None) -> st.SearchStrategy[dict]:
    """Requests for `stream`, or (None) for streams that don't exist."""
    credentials = st.sampled_from([streaming_site.key, "ssk_1_000000000000_" + "x" * 32])
    values = st.one_of(credentials, numbers, odd_text, st.sampled_from(["50", "redis", "bob"]))
    parameters = st.lists(
        st.tuples(mostly(st.sampled_from(STREAM_PARAMETER_NAMES), odd_text), values),
        max_size=4,
    ).map(lambda pairs: "&".join(f"{name}={value}" for name, value in pairs))
    # Mostly with the member's key, so that most requests reach the stream's parameters.
    parameters = st.tuples(
        mostly(st.just(f"identifier={streaming_site.key}&"), st.just("")), parameters
    ).map("".join)
    return st.fixed_dictionaries(
        {
            "stream": st.just(stream) if stream else odd_text,
            "method": mostly(st.just(STREAM_METHODS.get(stream, "GET")), st.sampled_from(METHODS)),
            "query": parameters,
            "body": st.one_of(
                st.tuples(st.just(FORM), parameters.map(str.encode)),
                st.tuples(st.just(FORM), parameters.map(str.encode)),
                st.tuples(st.sampled_from([FORM, "text/plain"]), st.sampled_from(HUGE_BODIES)),
                st.tuples(st.sampled_from(["application/json", ""]), st.binary(max_size=100)),
            ),
            "headers": st.fixed_dictionaries(
                {},
                optional={
                    "Cookie": st.just(streaming_site.cookie),
                    "Authorization": st.one_of(
                        credentials.map("Bearer {}".format), st.sampled_from(["Bearer", "Basic x"])
                    ),
                    "Origin": st.sampled_from(["http://evil.example", "null"]),
                },
            ),
        }
    )


# Every stream, and names of none (None).
STREAMS = [*STREAM_METHODS, None]


@pytest.mark.parametrize("stream", STREAMS)
def test_no_chunked_stream_fails_on_hostile_input_or_changes_redis_when_it_refuses(
    stream, streaming_site, redis_conn
):
    @STREAM_FUZZ_SETTINGS
    @given(request=stream_requests(streaming_site, stream))
    def check(request):
        content_type, body = request["body"]
        if request["method"] == "GET":
            body = b""
        headers = {**request["headers"], "Content-Type": content_type}
        before = redis_snapshot(redis_conn)
        response = ChunkedResponse(
            streaming_site.base_url,
            request["method"],
            f"/statuses/{request['stream']}.json?{request['query']}",
            body=body,
            headers=headers,
        )
        try:
            assert response.status < 500, (request, response.status)
            if response.status != 200:
                assert response.headers["x-content-type-options"] == "nosniff"
                # A path that names no stream (an encoded slash) is a page of the site's.
                if response.headers["content-type"].startswith("application/json"):
                    assert request["method"] == "HEAD" or "error" in response.json(), request
                assert changed_keys(before, redis_snapshot(redis_conn)) == [], request
        finally:
            response.close()
        wait_for_no_streams(redis_conn)

    check()
    assert "Traceback" not in streaming_site.new_log_lines()


@pytest.mark.parametrize("stream", STREAMS)
def test_no_websocket_fails_on_hostile_input_and_a_refused_one_closes_with_a_code(
    stream, streaming_site, redis_conn
):
    ws_base = streaming_site.base_url.replace("http://", "ws://")

    @STREAM_FUZZ_SETTINGS
    @given(
        request=stream_requests(streaming_site, stream),
        path=st.just("/statuses/{}.json") if stream else odd_text.map("/{}".format),
        frames=st.lists(
            st.one_of(odd_text, st.binary(max_size=200), st.sampled_from(HUGE_BODIES)), max_size=3
        ),
    )
    def check(request, path, frames):
        before = redis_snapshot(redis_conn)
        target = path.format(request["stream"]) + f"?{request['query']}"
        headers = {k: v for k, v in request["headers"].items() if k != "Origin"}
        with connect(
            ws_base + target,
            open_timeout=10,
            additional_headers=headers,
            origin=request["headers"].get("Origin"),
        ) as socket:
            if stream_stats()["clients"]:  # open: a refused socket is never counted
                # Frames a client sends are not read; they must not end the stream.
                for frame in frames:
                    socket.send(frame)
                # Generous: a loaded machine (2 cores, other suites) can stall a pong for seconds.
                assert socket.ping().wait(30), (request, target)
                socket.close()
                wait_for_no_streams(redis_conn)
                return
            last, code = last_words(socket, timeout=10)
        # A reset right after the close can lose the frame or the code (see last_words;
        # the refusal tests ask again until they have both): what did arrive is checked.
        assert last is None or "error" in last, (request, target)
        assert code is None or 4000 <= code < 5000, (request, target, code)
        assert changed_keys(before, redis_snapshot(redis_conn)) == [], (request, target)

    try:
        check()
    finally:
        wait_for_no_streams(redis_conn)
    assert "Traceback" not in streaming_site.new_log_lines()
