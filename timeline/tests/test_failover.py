"""A Redis Cluster failover while statuses are posted and pages read: the clients find
the new masters by themselves, and no acknowledged status and no job is lost.

Both suites run it on a cluster of its own, 3 masters with a replica each (the suite's
own cluster has no replicas)."""

import threading
import time

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from accounts.keys import user_key
from socialsite import jobs
from socialsite import keys as socialsite_keys
from socialsite.redis import is_redis_unavailable
from socialsite.testing.cluster import throwaway_cluster
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph.services import follow_user
from timeline.posting import services as posting
from timeline.statuses.selectors import get_status

FOLLOWERS = 12


@pytest.fixture
def failover_cluster():
    """A cluster with a replica per master, which the site uses for the test."""
    with throwaway_cluster(masters=3, replicas=1) as cluster:
        url = cluster.servers.url
        caches = {alias: {**config, "LOCATION": [url]} for alias, config in settings.CACHES.items()}
        # Few followers per pass and per job: every post queues fan-out jobs. Homes keep
        # every post; a job a failover interrupted is taken over soon.
        with override_settings(
            CACHES=caches,
            POSTS_PER_PASS=4,
            FAN_OUT_JOB_SIZE=4,
            HOME_TIMELINE_SIZE=1_000_000,
            JOB_CLAIM_IDLE_MS=500,
        ):
            yield cluster


def fail_over(cluster: redis.RedisCluster, key: str) -> None:
    """CLUSTER FAILOVER on the replica of the master serving `key`: the replica waits to
    have every write its master acknowledged, then takes over; waits until it has. A
    manual failover gives up after 5 s (as one asked before the cluster bus links are all
    up, just after the cluster started): asked again then, as an operator would."""
    for _ in range(5):
        promoted = replica_serving(cluster.servers.ports, key)
        promoted.execute_command("CLUSTER FAILOVER")
        deadline = time.monotonic() + 6
        while time.monotonic() < deadline:
            if promoted.info("replication")["role"] == "master":
                return
            time.sleep(0.05)
    raise AssertionError("the replica never took over")


def replica_serving(ports: list[int], key: str) -> redis.Redis:
    """The in-sync replica of the master that serves `key`, as the servers themselves
    say (a master answers for its own slots, any other server says MOVED); waits for one
    while an earlier failover settles."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for port in ports:
            replica = redis.Redis(port=port, decode_responses=True)
            replication = replica.info("replication")
            if replication.get("master_link_status") != "up":
                continue
            try:
                redis.Redis(port=replication["master_port"]).exists(key)
            except redis.ResponseError:  # MOVED: not that master's slot
                continue
            return replica
        time.sleep(0.1)
    raise AssertionError(f"no replica in sync for the master of {key}")


def test_a_failover_loses_no_acknowledged_status_and_no_job(failover_cluster, make_user):
    author = make_user("author").uid
    fans = [make_user().uid for _ in range(FOLLOWERS)]
    for fan in fans:
        follow_user(fan, author)
    acknowledged, failures, stop = [], [], threading.Event()

    def post_until_stopped():
        while not stop.is_set():
            try:
                acknowledged.append(posting.post_status(author, f"post {len(acknowledged)}"))
            except redis.RedisError as error:  # a step caught mid-switch: not acknowledged
                failures.append(error)

    def read_pages(rounds: int) -> None:
        for _ in range(rounds):
            while True:
                try:
                    assert feeds.home_page(fans[0]) is not None
                    break
                except redis.RedisError as error:
                    failures.append(error)

    poster = threading.Thread(target=post_until_stopped)
    worker = threading.Thread(target=jobs.work, kwargs={"stop": stop.is_set, "block_ms": 100})
    poster.start()
    worker.start()
    try:
        read_pages(20)
        # The author's master, then the job queue's (if it's another one).
        fail_over(failover_cluster, user_key(author))
        read_pages(20)
        fail_over(failover_cluster, socialsite_keys.JOB_STREAM)
        read_pages(20)
        # Posting goes on by itself: the clients found the new masters.
        posted_after, deadline = len(acknowledged), time.monotonic() + 30
        while len(acknowledged) < posted_after + 10:
            assert time.monotonic() < deadline, f"posting stopped: {failures[-3:]}"
            read_pages(1)
    finally:
        stop.set()
        poster.join()
        worker.join()

    call_command("worker", burst=True)
    # What a request caught mid-switch raised is a 503 "try again" page, not a 500.
    assert all(is_redis_unavailable(error) for error in failures), failures
    for status_id in acknowledged:
        assert get_status(status_id)["uid"] == author
    profile = {int(i) for i in failover_cluster.zrange(keys.profile_timeline_key(author), 0, -1)}
    assert set(acknowledged) <= profile
    for fan in fans:  # the first pass and every job's share of the fan-out
        home = {int(i) for i in failover_cluster.lrange(keys.home_timeline_key(fan), 0, -1)}
        assert set(acknowledged) <= home
    assert failover_cluster.xlen(socialsite_keys.JOB_STREAM) == 0
    assert failover_cluster.xlen(socialsite_keys.FAILED_JOB_STREAM) == 0
