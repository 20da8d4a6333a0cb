"""The site's settings with the bench's changes: a URLconf that adds a bare view beside
the site's own pages (the site itself never serves it), no per-IP stream cap, as
every one of the streaming bench's thousands of clients comes from 127.0.0.1, and no
cap on data exports and searches, which the HTTP part asks for thousands of times a run."""

from socialsite.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
STREAM_CONNECTIONS_PER_IP = 1_000_000
RATE_LIMITS = {**RATE_LIMITS, "exports": (1_000_000, 1), "searches": (1_000_000, 1)}  # noqa: F405
