"""One setting selects a Redis Cluster: REDIS_URL=redis+cluster://host:port[,...]."""

import os
import subprocess
import sys

import pytest
import redis
from django.conf import settings

from socialsite.dashboard import human_bytes, redis_stats
from socialsite.redis import (
    cluster_options,
    for_each_primary,
    get_async_redis,
    get_redis,
    is_redis_unavailable,
)


def test_a_cluster_url_names_its_seed_nodes_and_credentials():
    assert cluster_options("redis+cluster://10.0.0.1:7000,10.0.0.2:7001") == {
        "seeds": [("10.0.0.1", 7000), ("10.0.0.2", 7001)],
        "ssl": False,
    }
    assert cluster_options("rediss+cluster://app:s%40cret@[::1]:7000/") == {
        "seeds": [("::1", 7000)],
        "ssl": True,
        "username": "app",
        "password": "s@cret",
    }


def test_a_one_server_url_is_not_a_cluster():
    assert cluster_options("redis://127.0.0.1:6379/0") is None
    assert cluster_options("unix:///tmp/redis.sock") is None


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("redis+cluster://", "at least one host:port"),
        ("redis+cluster://10.0.0.1", "'10.0.0.1' is not host:port"),
        ("redis+cluster://10.0.0.1:port", "is not host:port"),
    ],
)
def test_a_cluster_url_without_a_usable_node_is_refused_with_a_clear_error(url, problem):
    with pytest.raises(ValueError, match=problem):
        cluster_options(url)


async def test_the_sync_and_async_clients_follow_the_setting():
    on_cluster = cluster_options(settings.REDIS_URL) is not None
    assert isinstance(get_redis(), redis.RedisCluster) == on_cluster
    assert isinstance(get_async_redis(), redis.asyncio.RedisCluster) == on_cluster


def test_the_dashboard_counts_the_keys_of_every_server(redis_conn):
    pipe = redis_conn.pipeline(transaction=False)
    for i in range(60):
        pipe.set(f"spread:{{{i}}}", i)
    pipe.execute()
    stats = redis_stats()
    assert stats["keys"] == 60
    assert stats["servers"] == len(for_each_primary(redis_conn))
    assert stats["used_memory"] > 0


def test_sizes_are_written_as_redis_writes_them():
    assert human_bytes(900) == "900B"
    assert human_bytes(3 * 1024 * 1024 // 2) == "1.50M"
    assert human_bytes(5 * 1024**4) == "5120.00G"


@pytest.mark.parametrize(
    "error",
    [
        redis.ResponseError("MOVED 5781 127.0.0.1:7001"),  # as a PackedPipeline raises it
        redis.ResponseError("CLUSTERDOWN The cluster is down"),
        redis.exceptions.MovedError("5781 127.0.0.1:7001"),  # as redis-py raises them
        redis.exceptions.TryAgainError("Multiple keys request during rehashing of slot"),
        redis.exceptions.ClusterDownError("The cluster is down"),
    ],
)
def test_a_cluster_moving_its_slots_is_redis_unavailable_for_now(error):
    assert is_redis_unavailable(error)


def test_a_command_error_is_not_redis_unavailable():
    assert not is_redis_unavailable(redis.ResponseError("WRONGTYPE Operation against a key"))
    assert not is_redis_unavailable(ValueError("MOVED"))


def test_a_site_given_a_cluster_url_with_no_usable_node_refuses_to_start(tmp_path):
    env = {**os.environ, "SOCIALSITE_VAR_DIR": str(tmp_path), "REDIS_URL": "redis+cluster://db1"}
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "REDIS_URL: 'db1' is not host:port" in done.stderr
