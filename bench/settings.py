"""The site's settings with one change for the HTTP bench: a URLconf that adds a bare
view beside the site's own pages (the site itself never serves it)."""

from socialsite.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
