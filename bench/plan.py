"""How big each part of the bench runs: `--quick` (seconds, for the test suite), the
default (a few minutes), `--big` (adds the 1,000,000-follower fan-out); `--stream-matrix`
runs every streaming size (STREAM_MATRIX: for a machine with cores to spare)."""

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Plan:
    name: str
    fan_out_sizes: tuple[int, ...] = (10_000, 100_000)
    fan_out_repeats: int = 3
    post_followers: tuple[int, ...] = (0, 100, 1_000)
    post_samples: int = 200
    page_samples: int = 1_000
    follow_samples: int = 200
    popular_followers: int = 100_000
    profile_statuses: int = 1_000
    # A reader who likes and reposts a lot (bench.pages.marking_reader): their likes and
    # reposts, and how many others repost each status of their home's first page.
    marking_likes: int = 1_000
    marking_reposts: int = 100
    marking_reposters: int = 10
    network_users: int = 1_000
    network_follows_each: int = 50
    network_posts_each: int = 10
    projection_users: int = 1_500
    # The biggest follower set measured for the projection (bench.follower_sets).
    follower_set_largest: int = 100_000
    http_connections: int = 100
    http_seconds: float = 8.0
    # (stream clients, posts a second, daphne processes) a streaming run each.
    stream_runs: tuple[tuple[int, int, int], ...] = (
        (2_500, 200, 1),
        (2_500, 200, 2),
        (2_500, 1_000, 1),
        (5_000, 200, 1),
    )
    stream_client_processes: int = 4
    stream_seconds: float = 15.0
    # WebSockets opened one after another, each to its first event (bench.sockets).
    socket_connects: int = 100
    scale_processes: tuple[int, ...] = (1, 2, 4)
    scale_connections_per_process: int = 50
    scale_seconds: float = 4.0
    scale_followers: int = 200_000
    scale_repeats: int = 3
    search_statuses: int = 100_000
    search_people: int = 500
    delivery_homes: int = 1_000
    delivery_repeats: int = 9


DEFAULT = Plan(name="default")
BIG = replace(DEFAULT, name="big", fan_out_sizes=(10_000, 100_000, 1_000_000))
QUICK = Plan(
    name="quick",
    fan_out_sizes=(2_000, 5_000),
    fan_out_repeats=1,
    post_samples=20,
    page_samples=50,
    follow_samples=10,
    popular_followers=2_000,
    profile_statuses=200,
    marking_likes=60,
    marking_reposts=10,
    marking_reposters=2,
    network_users=50,
    network_follows_each=5,
    network_posts_each=2,
    projection_users=300,
    follower_set_largest=2_000,
    http_connections=10,
    http_seconds=1.0,
    stream_runs=((25, 20, 1), (25, 20, 2)),
    stream_client_processes=2,
    stream_seconds=2.0,
    socket_connects=10,
    scale_processes=(1, 2),
    scale_connections_per_process=5,
    scale_seconds=0.5,
    scale_followers=5_000,
    scale_repeats=1,
    search_statuses=2_000,
    search_people=30,
    delivery_homes=100,
    delivery_repeats=2,
)

# Every streaming size the issue asks for, on one daphne process and on several.
STREAM_MATRIX = tuple(
    (clients, rate, servers)
    for clients in (2_500, 5_000, 7_500, 10_000)
    for rate in (200, 1_000)
    for servers in (1, 4)
)
