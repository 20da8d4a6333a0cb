import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from socialsite import jobs
from socialsite import keys as socialsite_keys
from socialsite.redis import for_each_primary
from socialsite.testing.waits import wait_for
from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.posting import services as posting
from timeline.tests.pages import home_entries


def start_worker(passes: int) -> subprocess.Popen:
    env = {**os.environ, "POSTS_PER_PASS": str(passes), "FAN_OUT_JOB_SIZE": str(passes)}
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker"], cwd=settings.BASE_DIR, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


@override_settings(POSTS_PER_PASS=20, FAN_OUT_JOB_SIZE=20, JOB_CLAIM_IDLE_MS=50)
def test_a_worker_killed_mid_job_loses_nothing(make_user, redis_conn):
    author = make_user().uid
    fans = [make_user().uid for _ in range(2000)]
    pipe = redis_conn.pipeline(transaction=False)
    for i, fan in enumerate(fans):
        pipe.zadd(keys.followers_key(author), {fan: i})
    pipe.execute()
    sid = posting.post_status(author, "durable")

    def delivered() -> int:
        return sum(sid in home_entries(fan) for fan in fans)

    worker = start_worker(passes=20)
    try:
        # Followers are served in follow order: one look says 200 have it, and the
        # worker (fast, and done within a second) is caught early in its run.
        wait_for(lambda: sid in home_entries(fans[199]))
        # Freeze every write (on every server of a cluster) so the worker is caught
        # holding a job, then kill it.
        servers = for_each_primary(redis_conn)
        while True:
            assert worker.poll() is None, "the worker finished before it could be caught"
            for server in servers:
                server.execute_command("CLIENT", "PAUSE", 5000, "WRITE")
            held = redis_conn.xpending(socialsite_keys.JOB_STREAM, socialsite_keys.JOB_GROUP)[
                "pending"
            ]
            if held:
                worker.send_signal(signal.SIGKILL)
                worker.wait()
            for server in servers:
                server.execute_command("CLIENT", "UNPAUSE")
            if held:
                break
            time.sleep(0.005)
    finally:
        worker.kill()
        worker.wait()

    before = delivered()
    assert before < len(fans), "the worker finished before it could be killed"
    assert (
        redis_conn.xpending(socialsite_keys.JOB_STREAM, socialsite_keys.JOB_GROUP)["pending"] == 1
    )

    call_command("worker", burst=True)

    assert delivered() == len(fans)
    for fan in fans[::97]:
        assert [s["id"] for s in feeds.get_status_messages(fan)] == [sid]
    assert jobs.queue_stats()["in_progress"] == 0


@override_settings(JOB_MAX_ATTEMPTS=2, JOB_CLAIM_IDLE_MS=0)
def test_a_job_that_keeps_failing_is_moved_to_the_failed_stream(redis_conn):
    calls = []

    @jobs.handler("always_fails")
    def always_fails(args):
        calls.append(args)
        raise RuntimeError("boom")

    jobs.enqueue(redis_conn, ("always_fails", {"n": 1}))
    jobs.work(burst=True)
    assert len(calls) == 2
    stats = jobs.queue_stats()
    assert (stats["failed"], stats["queued"], stats["in_progress"]) == (1, 0, 0)


def test_a_job_of_an_unknown_kind_fails_at_once(redis_conn):
    jobs.enqueue(redis_conn, ("no_such_kind", {}))
    jobs.work(burst=True)
    assert jobs.queue_stats()["failed"] == 1


@override_settings(JOB_CLAIM_IDLE_MS=0)
def test_a_dead_workers_consumer_leaves_the_group_once_its_job_is_claimed(redis_conn):
    calls = []

    @jobs.handler("counted")
    def counted(args):
        calls.append(args)
        return []

    jobs.ensure_group(redis_conn)
    jobs.enqueue(redis_conn, ("counted", {"n": 1}))
    # The dead worker took the job and never acknowledged it.
    redis_conn.xreadgroup(
        socialsite_keys.JOB_GROUP, "dead-host-1", {socialsite_keys.JOB_STREAM: ">"}, count=1
    )
    assert jobs.work(burst=True) == 1
    assert calls == [{"n": 1}]
    names = [
        c["name"]
        for c in redis_conn.xinfo_consumers(socialsite_keys.JOB_STREAM, socialsite_keys.JOB_GROUP)
    ]
    assert "dead-host-1" not in names


def test_only_consumers_idle_long_with_nothing_pending_leave(redis_conn):
    jobs.ensure_group(redis_conn)
    for n in (1, 2):
        jobs.enqueue(redis_conn, ("counted", {"n": n}))
    for name in ("holding", "empty"):
        [[_, [(message_id, _)]]] = redis_conn.xreadgroup(
            socialsite_keys.JOB_GROUP, name, {socialsite_keys.JOB_STREAM: ">"}, count=1
        )
    # "empty" finished its job; "holding" still holds one.
    redis_conn.xack(socialsite_keys.JOB_STREAM, socialsite_keys.JOB_GROUP, message_id)
    assert jobs.forget_dead_consumers(redis_conn) == []  # "empty" was seen just now
    with override_settings(JOB_CLAIM_IDLE_MS=0):
        assert [str(n) for n in jobs.forget_dead_consumers(redis_conn)] == ["empty"]
    consumers = redis_conn.xinfo_consumers(socialsite_keys.JOB_STREAM, socialsite_keys.JOB_GROUP)
    assert [c["name"] for c in consumers] == ["holding"]
