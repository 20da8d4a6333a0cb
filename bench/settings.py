"""The site's settings with the bench's changes: a URLconf that adds a bare view beside
the site's own pages (the site itself never serves it), no per-IP stream cap, as
every one of the streaming bench's thousands of clients comes from 127.0.0.1, and no
cap on data exports, searches, visitors' reads and avatar changes, which the HTTP part
asks for thousands of times a run from one address (and the avatar row in a loop)."""

from socialsite.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
STREAM_CONNECTIONS_PER_IP = 1_000_000
RATE_LIMITS = {  # noqa: F405
    **RATE_LIMITS,  # noqa: F405
    **dict.fromkeys(["exports", "searches", "avatar_changes"], (1_000_000, 1)),
    # The visitors' read flood sets it back to the shipped default for its daphne.
    "anonymous_reads": env_rate("RATE_LIMIT_ANONYMOUS_READS", "1000000/1"),  # noqa: F405
}
