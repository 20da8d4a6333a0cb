"""7. Scale: requests/s with 1, 2, 4 daphne processes on one port (the home page and
the bare view, 50 keep-alive connections a process), and deliveries/s of one post to
200,000 followers with 1, 2, 4 worker processes; each beside the same figure with one
process, from the same run. With each, the CPU that Redis, the site's processes and
the bench's own client used (in cores: 1.0 is one core busy throughout), which is
where the ceiling shows.

The Redis under test comes from one place, `redis_under_test()`: the daphne processes
and workers get its URL, and the bench's own client (seeding, posting) is the site's
configured one, the same server or cluster. A run on one server then runs this part
again on a throwaway 3-master cluster (`python -m bench --cluster --only scale`, in a
child: the site's clients are set up for one REDIS_URL per process) and reports its
rows beside its own. On a cluster, Redis's CPU is every master's, summed and each."""

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings

from socialsite import jobs
from socialsite import keys as socialsite_keys
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import for_each_primary
from socialsite.servers import stop, throwaway_daphnes
from timeline.posting import services as posting

from . import seed
from .context import Context
from .measure import Rate, Row
from .plan import DEFAULT, Plan
from .report import redis_servers
from .servers import cpu_seconds
from .web import hammer
from .web_accounts import logged_in_reader

PATHS = {"home page": "/", "bare view": "/bench/bare/"}
# The cluster's run, from its start to its rows (the default plan's takes ~2 minutes).
CLUSTER_RUN_TIMEOUT = 900


def redis_under_test(conn) -> tuple[str, str]:
    """(label, URL) of the Redis the scale rows run on: the bench's throwaway server or
    cluster, that `conn` (the site's client) talks to."""
    return redis_servers(conn), settings.REDIS_URL


def environment(redis_url: str) -> dict[str, str]:
    return {**os.environ, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "bench.settings"}


class CpuMeter:
    """CPU seconds used since it was made, by Redis (INFO), some processes and this one."""

    def __init__(self, conn, pids: list[int]) -> None:
        self.primaries, self.pids = for_each_primary(conn), pids
        self.started = time.perf_counter()
        self.redis, self.servers, self.client = self._now()

    def _now(self) -> tuple[list[float], float, float]:
        redis = [
            cpu["used_cpu_user"] + cpu["used_cpu_sys"]
            for cpu in (primary.info("cpu") for primary in self.primaries)
        ]
        return redis, sum(cpu_seconds(pid) for pid in self.pids), time.process_time()

    def cores(self, servers: str) -> dict:
        """The CPU used so far in cores: Redis (on a cluster, also each master's:
        `redis_cores_each`), the processes (named `servers`), this one."""
        elapsed = time.perf_counter() - self.started
        redis, processes, client = self._now()
        started = zip(redis, self.redis, strict=True)
        each = [round((now - then) / elapsed, 2) for now, then in started]
        used = {
            "redis_cores": sum(redis) - sum(self.redis),
            f"{servers}_cores": processes - self.servers,
            "bench_client_cores": client - self.client,
        }
        cores = {name: round(seconds / elapsed, 2) for name, seconds in used.items()}
        return {**cores, "redis_cores_each": each} if len(each) > 1 else cores


def _http(ctx: Context, label: str, redis_url: str, cookie: str) -> list[Row]:
    plan = ctx.plan
    measured: dict[tuple[str, int], tuple[Rate, dict]] = {}
    for count in plan.scale_processes:
        connections = plan.scale_connections_per_process * count
        with throwaway_daphnes(ctx.var_dir, environment(redis_url), count) as (base, processes):
            for path in PATHS.values():  # warm-up: imports, templates, connections
                asyncio.run(hammer(base, path, cookie, connections, 0.5))
            for name, path in PATHS.items():
                meter = CpuMeter(ctx.conn, [process.pid for process in processes])
                load = asyncio.run(hammer(base, path, cookie, connections, plan.scale_seconds))
                notes = {
                    "redis_servers": label,
                    "processes": count,
                    "connections": connections,
                    "errors": load.errors,
                    **meter.cores("daphne"),
                }
                measured[name, count] = (load.rate(), notes)
    rows = []
    for name, count in measured:
        rate, notes = measured[name, count]
        case = f"{name}, {count} daphne {'process' if count == 1 else 'processes'}, {label}"
        one = measured[name, plan.scale_processes[0]][0]
        rows.append(Row("scale", case, rate, "1 process", one, notes={"figure": name, **notes}))
    return rows


def _start_workers(count: int, redis_url: str) -> list[subprocess.Popen]:
    env = {**environment(redis_url), "DJANGO_SETTINGS_MODULE": "socialsite.settings"}
    command = [sys.executable, "manage.py", "worker"]
    return [
        subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, stdout=subprocess.PIPE,
                         text=True)
        for _ in range(count)
    ]  # fmt: skip


def _wait_until_up(conn, workers: list[subprocess.Popen]) -> None:
    """Until every worker is set up: each subscribes to the event channel (to count
    activity) just before it starts on the jobs. (Redis 6.2 lists a consumer in the job
    group only once it has been given a job.)"""
    deadline = time.monotonic() + 60
    while _subscribers(conn) < len(workers):
        if time.monotonic() > deadline or any(w.poll() is not None for w in workers):
            raise RuntimeError("the bench's workers did not start")
        time.sleep(0.05)


def _subscribers(conn) -> int:
    """Clients subscribed to the event channel, on every primary (each counts its own)."""
    primaries = for_each_primary(conn)
    return sum(dict(server.pubsub_numsub(STATUS_CHANNEL))[STATUS_CHANNEL] for server in primaries)


def _post_and_wait(conn, author: int) -> float:
    """Posts to `author`'s followers; the seconds until every fan-out job is done."""
    started = time.perf_counter()
    posting.post_status(author, "to everyone, by every worker")
    while conn.xlen(socialsite_keys.JOB_STREAM):
        time.sleep(0.002)
    return time.perf_counter() - started


def _fan_out(ctx: Context, label: str, redis_url: str) -> list[Row]:
    conn, plan = ctx.conn, ctx.plan
    size = plan.scale_followers
    author = seed.user("star")
    followers = seed.bulk_followers(conn, author, size)
    jobs.ensure_group(conn)
    measured: dict[int, tuple[Rate, dict]] = {}
    for count in plan.scale_processes:
        workers = _start_workers(count, redis_url)
        try:
            _wait_until_up(conn, workers)
            _post_and_wait(conn, author)  # warm-up: every home exists, as on a live site
            meter = CpuMeter(conn, [worker.pid for worker in workers])
            seconds = sorted(_post_and_wait(conn, author) for _ in range(plan.scale_repeats))
            notes = {"redis_servers": label, "processes": count, "followers": size}
            notes.update(meter.cores("worker"))
        finally:
            for worker in workers:
                worker.send_signal(signal.SIGTERM)
            outputs = [worker.communicate(timeout=30)[0] for worker in workers]
            stop(workers)
        done = [int(m.group(1)) for out in outputs if (m := re.search(r"(\d+) jobs done", out))]
        rate = Rate(size / seconds[len(seconds) // 2], "deliveries")
        measured[count] = (rate, {**notes, "jobs_done_by_each_worker": done})
    seed.drop_homes(conn, followers)
    one = measured[plan.scale_processes[0]][0]
    return [
        Row(
            "scale",
            f"fan-out to {size:,}, {count} {'worker' if count == 1 else 'workers'}, {label}",
            rate,
            "1 worker",
            one,
            notes={"figure": "fan-out", **notes},
        )
        for count, (rate, notes) in measured.items()
    ]


def on_a_cluster(plan: Plan) -> list[Row]:
    """This part's rows on a throwaway cluster, from a child run of the bench."""
    sizes = [] if plan is DEFAULT else [f"--{plan.name}"]
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as out:
        command = [sys.executable, "-m", "bench", "--cluster", "--only", "scale", *sizes]
        done = subprocess.run(
            [*command, "--out", out], cwd=settings.BASE_DIR, capture_output=True, text=True,
            timeout=CLUSTER_RUN_TIMEOUT,
        )  # fmt: skip
        if done.returncode:
            output = done.stdout[-2000:] + done.stderr[-3000:]
            raise RuntimeError(f"the bench's run on a cluster failed: {output}")
        results = json.loads((Path(out) / "latest.json").read_text())
    return [Row.from_json(row) for row in results["rows"]]


def run(ctx: Context) -> list[Row]:
    label, redis_url = redis_under_test(ctx.conn)
    cookie, _, _, _ = logged_in_reader(ctx.plan.profile_statuses, "scalereader")
    rows = _http(ctx, label, redis_url, cookie) + _fan_out(ctx, label, redis_url)
    if label == "one Redis":
        rows += on_a_cluster(ctx.plan)
    return rows
