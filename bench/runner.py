"""Runs the chosen parts against the configured (throwaway) Redis and reports."""

import importlib
import time
from pathlib import Path

from socialsite.redis import for_each_primary, get_redis

from . import report
from .context import Context
from .plan import Plan
from .roundtrips import count_round_trips


def run(plan: Plan, parts: tuple[str, ...], out: Path, var_dir: Path, started: float) -> int:
    conn = get_redis()
    ctx = Context(plan, conn, count_round_trips(conn), var_dir)
    info = report.machine(conn)
    on = f"{info['redis_servers']} (Redis {info['redis']})"
    print(f"bench ({plan.name}) on {info['nproc']} x {info['cpu']}, {on}")
    rows = []
    for part in parts:
        part_started = time.monotonic()
        part_rows = importlib.import_module(f"bench.{part}").run(ctx)
        print(f"  {part}: {time.monotonic() - part_started:.1f} s", flush=True)
        rows.extend(part_rows)
        for server in for_each_primary(conn):
            server.flushdb()
    print(report.table(rows))
    out.mkdir(parents=True, exist_ok=True)
    report.write_json(out / "latest.json", plan.name, info, rows, time.monotonic() - started)
    print(f"wrote {out / 'latest.json'}")
    drawings = (
        ("latest.png", report.draw),
        ("scale.png", report.draw_scale),
        ("cost.png", report.draw_cost),
    )
    for name, draw in drawings:
        if draw(out / name, rows):
            print(f"wrote {out / name}")
    return 0
