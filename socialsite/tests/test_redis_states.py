"""Redis states that pass (loading after a restart, busy with a long script, a replica cut
off from its primary, a cluster's slots unserved or moving) answer 503, never 500: a
page's HTML, the API's JSON. Each state is a real server's where one can be made here;
a cluster's replies are checked by their text (test_failover moves a real one's slots)."""

import contextlib
import json
import shutil
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.test import RequestFactory, override_settings

from socialsite.batches import reply_error
from socialsite.embedded_redis import EmbeddedRedis, throwaway
from socialsite.redis import PackedPipeline, is_redis_unavailable
from socialsite.views import server_error
from timeline.posting import services as posting

from .test_error_pages import as_a_browser, is_the_outage_page


class ConfiguredRedis(EmbeddedRedis):
    """A throwaway server started with `extra` redis-server arguments."""

    def __init__(self, extra: list[str]) -> None:
        base = throwaway()
        super().__init__(base.data_dir, persistent=False)
        self.extra = extra

    def command(self) -> list[str]:
        return [*super().command(), *self.extra]


@contextlib.contextmanager
def site_on(server: EmbeddedRedis) -> Iterator[EmbeddedRedis]:
    """The site (this process's) runs on `server`, started here and stopped after."""
    url = server.start()
    caches = {alias: {**config, "LOCATION": url} for alias, config in settings.CACHES.items()}
    try:
        with override_settings(CACHES=caches):
            yield server
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


def is_the_api_outage_answer(response) -> bool:
    return (
        response.status_code == 503
        and response["Content-Type"] == "application/json"
        and "Redis" in json.loads(response.content)["error"]
        and bool(response["Retry-After"])
    )


@pytest.mark.parametrize(
    "reply, kind",
    [
        ("LOADING Redis is loading the dataset in memory", redis.exceptions.BusyLoadingError),
        ("MASTERDOWN Link with MASTER is down", redis.exceptions.MasterDownError),
        ("CLUSTERDOWN The cluster is down", redis.exceptions.ClusterDownError),
        ("TRYAGAIN Multiple keys request during rehashing", redis.exceptions.TryAgainError),
        ("MOVED 5781 127.0.0.1:7001", redis.exceptions.MovedError),
        ("READONLY You can't write against a read only replica.", redis.exceptions.ReadOnlyError),
        ("BUSY Redis is busy running a script.", redis.ResponseError),
    ],
)
def test_a_packed_pipelines_error_reply_is_raised_as_redis_py_raises_it_and_means_503(reply, kind):
    error = reply_error(reply)
    assert type(error) is kind
    assert is_redis_unavailable(error)


def test_a_redis_py_pipelines_busy_reply_means_503_too():
    # A redis-py pipeline puts where the command was before a reply it has no class for.
    error = redis.ResponseError(
        "Command # 1 (EVAL x 0) of pipeline caused error: BUSY Redis is busy running a script."
    )
    assert is_redis_unavailable(error)
    assert not is_redis_unavailable(
        redis.ResponseError("Command # 1 (GET x) of pipeline caused error: WRONGTYPE Operation")
    )


def test_a_packed_pipeline_raises_a_command_error_as_a_plain_response_error(redis_conn):
    redis_conn.set("a-string", "x")
    pipe = PackedPipeline(redis_conn)
    pipe.lpush("a-string", 1)
    with pytest.raises(redis.ResponseError) as raised:
        pipe.execute()
    assert type(raised.value) is redis.ResponseError
    assert not is_redis_unavailable(raised.value)


@pytest.mark.django_db
def test_with_redis_down_the_api_answers_503_in_json(client):
    with site_on(throwaway()) as server:
        server.stop()
        response = as_a_browser(client).get("/api/v1/timelines/public")
    assert is_the_api_outage_answer(response)


def test_an_unexpected_api_error_is_a_json_500_without_a_traceback():
    request = RequestFactory().get("/api/v1/instance")
    try:
        raise RuntimeError("secret detail")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    assert json.loads(response.content) == {"error": "Something went wrong on our side."}


@pytest.fixture
def busy_redis(db):
    """The site on a server that answers BUSY once a script runs past 20 ms, and a
    function that runs a script spinning for `seconds` in a thread of its own."""
    with site_on(ConfiguredRedis(["--lua-time-limit", "20"])) as server:
        spinner = redis.Redis.from_url(server.url)
        threads = []

        def spin(seconds: float) -> None:
            script = (
                "local t0 = redis.call('TIME') "
                "repeat local t = redis.call('TIME') "
                f"until (t[1] - t0[1]) * 1000000 + (t[2] - t0[2]) > {int(seconds * 1e6)} "
                "return 1"
            )
            thread = threading.Thread(target=spinner.eval, args=(script, 0), daemon=True)
            thread.start()
            threads.append(thread)
            watcher = redis.Redis.from_url(server.url)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    watcher.get("anything")
                except redis.ResponseError as error:
                    if str(error).startswith("BUSY"):
                        return
                time.sleep(0.01)
            raise AssertionError("the server never said BUSY")

        yield spin
        for thread in threads:
            thread.join(timeout=30)


def test_while_a_script_keeps_redis_busy_pages_and_the_api_answer_503(busy_redis, make_user):
    alice = make_user("alice")
    browser = as_a_browser(alice.client)
    posting.post_status(alice.uid, "before the script")
    assert browser.get("/").status_code == 200
    busy_redis(3.0)
    assert is_the_outage_page(browser.get("/"))
    assert is_the_outage_page(browser.post("/statuses/", {"message": "busy?"}))
    assert is_the_api_outage_answer(browser.get("/api/v1/timelines/public"))


@pytest.mark.django_db
def test_on_a_replica_cut_off_from_its_primary_pages_and_the_api_answer_503(client):
    # No primary listens on port 1; the replica refuses to serve what it holds.
    cut_off = ["--replicaof", "127.0.0.1", "1", "--replica-serve-stale-data", "no"]
    with site_on(ConfiguredRedis(cut_off)) as server:
        with pytest.raises(redis.exceptions.MasterDownError):
            redis.Redis.from_url(server.url).get("anything")
        browser = as_a_browser(client)
        assert is_the_outage_page(browser.get("/"))
        assert is_the_outage_page(browser.get("/timeline/"))
        assert is_the_api_outage_answer(browser.get("/api/v1/timelines/public"))
