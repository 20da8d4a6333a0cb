"""`python -m bench [--quick | --big] [--stream-matrix | --stream-runs C:R:D ...] [--only PART ...]
[--out DIR] [--cluster]`

Starts a throwaway real redis-server (and, for the HTTP and streaming parts, real
daphne processes), runs the parts, prints the table and writes DIR/latest.json and
DIR/latest.png. With --cluster, a throwaway 3-master Redis Cluster instead, for the
scale part only (the scale part of a run on one server runs it too, in a child)."""

import argparse
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path

from socialsite.embedded_redis import throwaway

from . import plan as plans
from .environment import use_throwaway

PARTS = (
    "fan_out",
    "posts",
    "pages",
    "memory",
    "web",
    "group_pages",
    "flood",
    "uploads",
    "streams",
    "scale",
    "search",
    "ranking",
    "explore",
    "groups",
    "inplace",
    # Polls: a vote.
    "polls",
    "edits",
    "keeps",
    # Grouped notifications (the client API's v2).
    "notifications",
    # Media: an upload beside Pillow's own work; a status with media in Redis.
    "media",
    # Media on the pages (mediaweb): the home page of 30 cards with media.
    "media_pages",
    # Cards: the link card job against a local page.
    "cards",
)
# The parts measured on a cluster too. The others compare with baselines (the book's
# port among them, whose MULTI spans users' keys: a cluster refuses it) on one server.
CLUSTER_PARTS = ("scale",)
CLUSTER_MASTERS = 3
RESULTS = Path(__file__).parent / "results"


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="tiny sizes: seconds, for the tests")
    size.add_argument("--big", action="store_true", help="adds the 1,000,000-follower fan-out")
    streams = parser.add_mutually_exclusive_group()
    streams.add_argument(
        "--stream-matrix",
        action="store_true",
        help="streams: 2,500 to 10,000 clients at 200 and 1,000 posts/s on 1 and 4 daphnes",
    )
    streams.add_argument(
        "--stream-runs",
        nargs="+",
        type=stream_run,
        metavar="CLIENTS:RATE:DAPHNES",
        help="streams: these runs only, e.g. 10000:200:1 10000:200:2",
    )
    parser.add_argument("--only", nargs="+", choices=PARTS, help="run only these parts")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where results go")
    parser.add_argument(
        "--cluster",
        action="store_true",
        help=f"on a throwaway {CLUSTER_MASTERS}-master Redis Cluster: the scale part only",
    )
    args = parser.parse_args(argv)
    if args.cluster:
        refused = [part for part in args.only or () if part not in CLUSTER_PARTS]
        if refused:
            only = ", ".join(CLUSTER_PARTS)
            parser.error(f"--cluster runs only {only} (not {', '.join(refused)}) on a cluster")
        args.only = args.only or list(CLUSTER_PARTS)
    return args


def stream_run(text: str) -> tuple[int, int, int]:
    """A streaming run from "clients:posts a second:daphne processes", each a positive number."""
    parts = text.split(":")
    if len(parts) != 3 or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not CLIENTS:RATE:DAPHNES (positive numbers)")
    clients, rate, servers = map(int, parts)
    return clients, rate, servers


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    plan = plans.QUICK if args.quick else plans.BIG if args.big else plans.DEFAULT
    if args.stream_matrix:
        plan = replace(plan, stream_runs=plans.STREAM_MATRIX, stream_client_processes=8)
    if args.stream_runs:
        plan = replace(plan, stream_runs=tuple(args.stream_runs))
    if args.cluster:
        from socialsite.testing.cluster import ClusterServers

        server = ClusterServers(masters=CLUSTER_MASTERS)
    else:
        server = throwaway()
    try:
        # daphne and the bench share this server's directory for SQLite and logs.
        use_throwaway(server.start(), server.data_dir)
        from socialsite.staticfiles import collect

        collect()  # the pages link the static files' hashed names
        from .runner import run

        return run(plan, args.only or PARTS, args.out, server.data_dir, time.monotonic())
    finally:
        server.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
