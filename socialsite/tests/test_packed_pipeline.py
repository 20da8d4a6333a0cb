import time

import pytest
import redis

from socialsite.redis import Batch, PackedPipeline, ReplyNotRead
from socialsite.testing.cluster import throwaway_cluster


@pytest.fixture
def server(redis_conn) -> redis.Redis:
    """One server's client, for the tests of what a PackedPipeline does with its pool: the
    suite's Redis, or on a cluster the node serving the tag `{t}`, which their keys carry."""
    if isinstance(redis_conn, redis.RedisCluster):
        return redis_conn.get_redis_connection(redis_conn.get_node_from_key("{t}"))
    return redis_conn


def test_a_packed_pipeline_runs_its_commands_in_order_and_returns_raw_replies(redis_conn):
    pipe = PackedPipeline(redis_conn)
    pipe.set("a", "1")
    pipe.incr("a")
    pipe.get("a")
    assert pipe.execute() == ["OK", 2, "2"]


def test_replies_come_as_the_server_sends_them_decoded_as_the_client_decodes(server):
    server.hset("h{t}", mapping={"f": "é"})
    server.zadd("z{t}", {"m": 1.5})
    raw = redis.Redis(connection_pool=_raw(server))
    for client, field, value in ((server, "f", "é"), (raw, b"f", "é".encode())):
        pipe = PackedPipeline(client)
        pipe.hgetall("h{t}")
        pipe.zmscore("z{t}", ["m", "gone"])
        pipe.smembers("z:none{t}")
        assert pipe.execute() == [{field: value}, [1.5, None], []]


def test_a_repeating_command_is_one_command_whose_reply_follows_the_values_sent(redis_conn):
    for bit in (5, 123, 70000):
        redis_conn.setbit("bits", bit, 1)
    values = [123, 7, 70000, 5, 69999, 80]
    pipe = PackedPipeline(redis_conn)
    ok = pipe.set("before", "1")
    bits, sent = pipe.execute_repeating(("BITFIELD_RO", "bits"), ("GET", "u1"), values)
    before = pipe.get("before")
    assert sorted(sent) == sorted(map(str, values))
    pipe.execute()
    assert ok.value == "OK" and before.value == "1"
    assert dict(zip(sent, bits.value, strict=True)) == {
        "123": 1,
        "7": 0,
        "70000": 1,
        "5": 1,
        "69999": 0,
        "80": 0,
    }


def test_for_each_key_queues_every_command_for_every_key(redis_conn):
    pipe = PackedPipeline(redis_conn)
    pipe.for_each_key(["z:{1}", "z:{2}"], ("ZADD", 5, "x"), ("ZADD", 6, "y"))
    assert pipe.execute() == [1, 1, 1, 1]
    assert redis_conn.zrange("z:{2}", 0, -1, withscores=True) == [("x", 5.0), ("y", 6.0)]


def test_a_pipeline_larger_than_one_write_gets_every_reply(redis_conn):
    pipe = PackedPipeline(redis_conn)
    keys = [f"big:{{{i}}}" for i in range(5000)]
    pipe.for_each_key(keys, ("SET", "v" * 40))
    assert len(pipe.execute()) == 5000
    assert redis_conn.get(keys[-1]) == "v" * 40


def test_an_error_reply_raises_after_the_rest_ran_and_the_pool_stays_usable(redis_conn):
    redis_conn.set("text", "not a number")
    pipe = PackedPipeline(redis_conn)
    pipe.incr("text")
    pipe.set("after", "ran")
    with pytest.raises(redis.ResponseError):
        pipe.execute()
    assert redis_conn.get("after") == "ran"
    assert redis_conn.ping()


def test_a_pipeline_dropped_before_execute_gives_its_connection_back(server):
    pool = server.connection_pool
    pipe = PackedPipeline(server)
    pipe.for_each_key([f"left:{i}{{t}}" for i in range(5000)], ("SET", "v" * 40))
    assert pool._in_use_connections  # flushed while queueing, replies unread
    del pipe
    assert not pool._in_use_connections
    assert server.ping()


def _raw(client) -> redis.ConnectionPool:
    """A pool to the same server whose connections don't decode replies."""
    kwargs = {**client.connection_pool.connection_kwargs, "decode_responses": False}
    return redis.ConnectionPool(connection_class=client.connection_pool.connection_class, **kwargs)


@pytest.fixture(scope="module")
def cluster():
    with throwaway_cluster(masters=3) as client:
        yield client


@pytest.fixture
def cluster_conn(cluster):
    cluster.flushall(target_nodes=cluster.ALL_NODES)
    return cluster


def test_on_a_cluster_each_node_gets_its_keys_and_replies_keep_their_order(cluster_conn):
    keys = [f"n:{{{i}}}" for i in range(300)]
    assert len({cluster_conn.get_node_from_key(key).name for key in keys}) == 3
    pipe = PackedPipeline(cluster_conn)
    pipe.set("first", "a")
    pipe.for_each_key(keys, ("SET", "v"), ("APPEND", "w"))
    pipe.get("first")
    replies = pipe.execute()
    assert replies == ["OK", *["OK", 2] * len(keys), "a"]
    read = PackedPipeline(cluster_conn)
    for i, key in enumerate(keys[:50]):
        read.append(key, str(i))
    read.for_each_key(keys[:50], ("GET",))
    assert read.execute()[50:] == [f"vw{i}" for i in range(50)]


def test_fan_out_on_a_cluster_reaches_every_follower(cluster_conn):
    from accounts.keys import user_key
    from timeline import keys
    from timeline.feeds import fanout

    followers = list(range(1, 1001))
    for uid in followers:
        cluster_conn.hset(user_key(uid), "login", f"u{uid}")
    pipe = PackedPipeline(cluster_conn)
    fanout.deliver(pipe, 7, 100.0, followers, 800)  # an LPUSH per follower
    fanout.deliver(pipe, 9, 101.0, followers, 800, repost_of=3)  # a script per follower
    fanout.deliver(pipe, 64, 102.0, followers, 800)  # one that trims: LPUSH + LTRIM
    assert pipe.execute() == [1] * len(followers) * 2 + [3, "OK"] * len(followers)
    for uid in (1, 500, 1000):
        # Newest first (timeline.feeds.home_list).
        assert cluster_conn.lrange(keys.home_timeline_key(uid), 0, -1) == ["64", "9", "7"]


def test_an_error_on_one_node_raises_once_every_node_ran(cluster_conn):
    keys = [f"e:{{{i}}}" for i in range(30)]
    cluster_conn.set(keys[0], "not a number")
    pipe = PackedPipeline(cluster_conn)
    pipe.for_each_key(keys, ("INCR",))
    with pytest.raises(redis.ResponseError):
        pipe.execute()
    assert cluster_conn.get(keys[-1]) == "1"
    assert cluster_conn.ping()


def test_a_stalled_server_is_a_redis_timeout_and_the_connection_is_dropped(server):
    pool = redis.ConnectionPool(
        **{**server.connection_pool.connection_kwargs, "socket_timeout": 0.2},
        connection_class=server.connection_pool.connection_class,
    )
    impatient = redis.Redis(connection_pool=pool)
    impatient.ping()  # connected before the stall: the pipeline's own read times out
    server.client_pause(500)
    pipe = PackedPipeline(impatient)
    pipe.get("x{t}")
    with pytest.raises(redis.TimeoutError):
        pipe.execute()
    assert not pool._in_use_connections
    time.sleep(0.5)
    assert impatient.ping()


def test_each_queued_command_gives_a_handle_that_holds_its_reply_after_the_round_trip(
    redis_conn,
):
    redis_conn.set("a{t}", "1")
    pipe = PackedPipeline(redis_conn)
    got = pipe.get("a{t}")
    with pytest.raises(ReplyNotRead):
        got.value  # noqa: B018
    missing = pipe.get("b{t}")
    pipe.execute()
    assert got.value == "1" and missing.value is None


def test_a_run_for_each_key_is_one_handle_grouped_by_command(redis_conn):
    keys = [f"k:{i}{{t}}" for i in range(3)]
    pipe = PackedPipeline(redis_conn)
    one = pipe.for_each_key(keys, ("SET", "v"))
    two = pipe.for_each_key(keys, ("GET",), ("STRLEN",))
    pipe.execute()
    assert one.value == ["OK", "OK", "OK"]
    assert two.value == (["v", "v", "v"], [1, 1, 1])


def test_a_batch_gives_handles_on_a_redis_py_pipeline(redis_conn):
    redis_conn.zadd("z{t}", {"x": 1.5})
    batch = Batch(redis_conn)
    score = batch.zscore("z{t}", "x")
    missing = batch.zscore("z{t}", "y")
    batch.execute()
    assert score.value == 1.5 and missing.value is None
