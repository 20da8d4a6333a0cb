"""Fan-out exactly once per home: a chunk redone after its worker was killed in it (some
of its homes reached, the rest not) leaves every home holding the status once."""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from socialsite import jobs
from socialsite.redis import PackedPipeline, for_each_primary
from timeline import keys
from timeline.feeds import fanout
from timeline.follow_sets import followers as follower_sets
from timeline.graph.services import follow_user
from timeline.posting import services as posting
from timeline.tests.pages import home_entries

FIRST_PASS = 10
# One chunk for all the rest, so the worker is caught inside it: tens of milliseconds of
# pushes, sent as they are packed (PackedPipeline.FLUSH_BYTES).
FANS = 30_000


def start_worker() -> subprocess.Popen:
    env = {**os.environ, "POSTS_PER_PASS": str(FIRST_PASS), "FAN_OUT_JOB_SIZE": str(FANS)}
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker"], cwd=settings.BASE_DIR, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def holding(redis_conn, fans: list[str], status_id: int) -> list[int]:
    """How many times each fan's home holds `status_id` (its whole list, as stored)."""
    pipe = PackedPipeline(redis_conn)
    homes = pipe.for_each_key(map(keys.home_timeline_key, fans), ("LRANGE", 0, -1))
    pipe.execute()
    return [list(map(int, home)).count(status_id) for home in homes.value]


def kill_in_its_chunk(redis_conn, worker: subprocess.Popen, first: str, last: str) -> bool:
    """Kills `worker` once its chunk has reached the home of `first` but not yet `last`
    (writes frozen meanwhile, on every server); False if it finished the chunk first."""
    first_home, last_home = keys.home_timeline_key(first), keys.home_timeline_key(last)
    servers = for_each_primary(redis_conn)
    deadline = time.monotonic() + 120
    while not redis_conn.llen(first_home):
        assert worker.poll() is None and time.monotonic() < deadline, "the worker never began"
    for server in servers:
        server.execute_command("CLIENT", "PAUSE", 10_000, "WRITE")
    try:
        caught = not redis_conn.llen(last_home)
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    finally:
        for server in servers:
            server.execute_command("CLIENT", "UNPAUSE")
    return caught


@override_settings(POSTS_PER_PASS=FIRST_PASS, FAN_OUT_JOB_SIZE=FANS, JOB_CLAIM_IDLE_MS=50)
def test_a_chunk_redone_after_its_worker_was_killed_in_it_reaches_each_home_once(
    make_user, redis_conn
):
    author = make_user().uid
    fans = [str(100_000 + i) for i in range(FANS)]  # profile-less: delivery never reads one
    follower_sets.add_in_bulk(redis_conn, author, {fan: i for i, fan in enumerate(fans)})
    for _ in range(3):
        sid = posting.post_status(author, "once to each")
        worker = start_worker()
        try:
            caught = kill_in_its_chunk(redis_conn, worker, fans[FIRST_PASS], fans[-1])
        finally:
            worker.kill()
            worker.wait()
        if caught:
            break
        jobs.work(burst=True)  # a chunk done whole: the next status is tried
    assert caught, "the worker finished its chunk each time before it could be killed in it"
    time.sleep(0.2)  # what the killed worker sent before it died is run
    counts = holding(redis_conn, fans, sid)
    reached = sum(counts)
    assert FIRST_PASS < reached < FANS, "not killed in the middle of its chunk"

    # Another worker takes the chunk over (after JOB_CLAIM_IDLE_MS) and redoes it.
    call_command("worker", burst=True)

    counts = holding(redis_conn, fans, sid)
    assert [fan for fan, count in zip(fans, counts, strict=True) if count != 1] == []
    assert jobs.queue_stats()["in_progress"] == 0


@override_settings(HOME_TIMELINE_SIZE=3)
def test_a_redone_delivery_skips_a_home_that_holds_the_status_or_only_newer_ones(redis_conn):
    fans = ["1", "2", "3"]
    homes = {fan: keys.home_timeline_key(fan) for fan in fans}
    redis_conn.rpush(homes["1"], 9, 7, 5)  # holds it
    redis_conn.rpush(homes["2"], 12, 11, 10)  # full of newer ones: it was trimmed away
    redis_conn.rpush(homes["3"], 9, 4)  # reached by no one yet
    pipe = PackedPipeline(redis_conn)
    fanout.deliver(pipe, 7, 0.0, fans, 3, once=True)
    pipe.execute()
    assert home_entries("1") == [9, 7, 5]
    assert home_entries("2") == [12, 11, 10]
    assert home_entries("3") == [7, 9, 4]


def test_a_redone_repost_delivery_skips_a_home_that_holds_the_repost(make_user, redis_conn):
    fan = make_user().uid
    # The repost (12) was delivered, then many newer statuses: past REPOST_FALLOFF.
    redis_conn.rpush(keys.home_timeline_key(fan), *range(100, 60, -1), 12)
    redis_conn.zadd(keys.shown_reposts_key(keys.home_timeline_key(fan)), {3: 12})
    pipe = PackedPipeline(redis_conn)
    fanout.deliver(pipe, 12, 0.0, [fan], 1000, repost_of=3, once=True)
    pipe.execute()
    assert home_entries(fan).count(12) == 1


@override_settings(POSTS_PER_PASS=2, FAN_OUT_JOB_SIZE=10)
def test_a_follower_who_follows_before_the_job_reaches_them_gets_the_status_once(
    make_user, followers_of
):
    author = make_user().uid
    fans = followers_of(author, 4)
    sid = posting.post_status(author, "to the early and the late")
    late = make_user().uid
    follow_user(late, author)  # the follow's copy brings the status home
    assert home_entries(late) == [sid]
    jobs.work(burst=True)  # the job for the followers past the first pass reaches them
    for fan in [*fans, late]:
        assert home_entries(fan).count(sid) == 1, (fan, home_entries(fan))


def test_following_again_while_a_post_is_between_its_store_and_its_push_copies_nothing(
    make_user, redis_conn
):
    """A follow that exists already copies nothing home: a status stored but not yet
    pushed (the post's two round trips) would otherwise be there twice."""
    author, fan = make_user().uid, make_user().uid
    follow_user(fan, author)
    status = posting.check_post(redis_conn, author, "stored, not yet pushed", {})
    stored = posting.do_store_status(redis_conn, status)
    follow_user(fan, author)  # the fan follows again in between
    pipe = PackedPipeline(redis_conn)
    posting.queue_delivery(pipe, status, stored)
    pipe.execute()
    assert home_entries(fan).count(status["id"]) == 1, home_entries(fan)
