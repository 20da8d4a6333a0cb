"""Settings for socialsite. Every environment variable is listed in docs/operations.md."""

import math
import os
import re
import warnings
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from socialsite.deploy import secret_key
from socialsite.embedded_redis import socket_path
from socialsite.redis import cluster_options

# Cards (issue 33): the outbound fetcher's and link preview cards' settings.
from socialsite.settings_fetch import *  # noqa: F403

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("SOCIALSITE_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = secret_key(os.environ, VAR_DIR, DEBUG)
# SOCIALSITE_TLS=1: served behind a TLS-terminating reverse proxy that sets
# X-Forwarded-Proto (and strips it from clients). Off by default: `make run` and the
# tests serve plain HTTP on 127.0.0.1, where secure cookies and an HTTPS redirect
# would lock everyone out.
TLS = env_bool("SOCIALSITE_TLS", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TLS else None
SECURE_SSL_REDIRECT = TLS
SESSION_COOKIE_SECURE = TLS
CSRF_COOKIE_SECURE = TLS
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if TLS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = TLS
SECURE_HSTS_PRELOAD = TLS
ALLOWED_HOSTS = os.environ.get(
    "DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver"
).split(",")

INSTALLED_APPS = [
    "daphne",
    "socialsite.apps.SocialSiteAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "accounts",
    "timeline",
    "streaming",
    # The Mastodon client API (api/): OAuth 2 applications and tokens, in the ORM.
    "oauth2_provider",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "socialsite.middleware.content_security_policy",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "accounts.middleware.AuthenticationMiddleware",
    # Visitors' reads per address: those the ASGI app didn't count (socialsite.ratelimit).
    "socialsite.ratelimit.count_visitor_reads",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "socialsite.middleware.method_not_allowed_page",
    # request.htmx: the in-place actions answer htmx's requests with a partial.
    "django_htmx.middleware.HtmxMiddleware",
    # Serves static/ itself (from the app and project dirs), so `make run` needs no web
    # server. Last, not first as WhiteNoise suggests: it is the one middleware that can't
    # run async. Under ASGI, Django runs the async-capable middleware listed after it
    # async, each with thread hops of its own (about a dozen a request); listed before
    # it, they run in the request's one thread. A bare view through daphne: 290 -> 449
    # req/s in the bench.
    "whitenoise.middleware.WhiteNoiseMiddleware",
]

ROOT_URLCONF = "socialsite.urls"
# Django's 403 page for a bad CSRF token, but a line for an in-place action (htmx).
CSRF_FAILURE_VIEW = "socialsite.views.csrf_failure"
ASGI_APPLICATION = "socialsite.asgi.application"
# Django requests served at once by one daphne process (streams and static files don't
# count): see socialsite/concurrency.py.
HTTP_CONCURRENCY = int(os.environ.get("HTTP_CONCURRENCY", "1"))
if HTTP_CONCURRENCY < 1:
    raise ImproperlyConfigured(f"HTTP_CONCURRENCY must be 1 or more, not {HTTP_CONCURRENCY}")
# Seconds a request may hold its slot at a stretch: past it, the next request goes in
# beside it (and a warning is logged). CPU-heavy work (pictures) runs off the slot, in
# at most OFF_SLOT_PROCESSES child processes per server process at once, each killed
# (the upload refused) when not done within OFF_SLOT_SECONDS: see socialsite/offslot.py.
HTTP_SLOT_SECONDS = float(os.environ.get("HTTP_SLOT_SECONDS", "2"))
OFF_SLOT_PROCESSES = int(os.environ.get("OFF_SLOT_PROCESSES", "1"))
OFF_SLOT_SECONDS = float(os.environ.get("OFF_SLOT_SECONDS", "30"))
# How long each process keeps trending tags and Explore's trends (timeline.discovery.trends).
TRENDS_KEPT_SECONDS = float(os.environ.get("TRENDS_KEPT_SECONDS", "60"))
if HTTP_SLOT_SECONDS <= 0 or OFF_SLOT_SECONDS <= 0 or OFF_SLOT_PROCESSES < 1:
    raise ImproperlyConfigured(
        "HTTP_SLOT_SECONDS and OFF_SLOT_SECONDS must be over 0, OFF_SLOT_PROCESSES 1 or more"
    )
# Rendered status cards each process keeps (~1.5 KB each; 0 keeps none): see timeline/cards.py.
STATUS_CARDS_KEPT = int(os.environ.get("STATUS_CARDS_KEPT", "4000"))
if STATUS_CARDS_KEPT < 0:
    raise ImproperlyConfigured(f"STATUS_CARDS_KEPT must be 0 or more, not {STATUS_CARDS_KEPT}")

CONTEXT_PROCESSORS = [
    "django.template.context_processors.request",
    "django.contrib.auth.context_processors.auth",
    "django.contrib.messages.context_processors.messages",
    "accounts.context_processors.viewer",
    "timeline.notifications.context_processors.unread",
]
TEMPLATES = [
    {
        # The site's pages (jinja2/): see socialsite/jinja2.py.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja2"],
        "OPTIONS": {
            "environment": "socialsite.jinja2.environment",
            "trim_blocks": True,
            "lstrip_blocks": True,
            "context_processors": [*CONTEXT_PROCESSORS, "socialsite.jinja2.csrf"],
            # The apps' own globals and filters, by dotted path (socialsite/jinja2.py).
            "globals": {
                "status_cards": "timeline.statuses.cards.page_status_cards",
                "stream_keys_panel": "streaming.views.stream_keys_panel",
                "safety_panel": "timeline.safety.views.safety_panel",
                "filters_panel": "accounts.filter_views.filters_panel",  # apiprefs
                "quote_panel": "timeline.posting.quote_views.quote_panel",
                "posting_panel": "timeline.posting.preferences.posting_panel",
                "chosen_visibility": "timeline.posting.preferences.chosen_visibility",
                "composer": "timeline.posting.composer.composer",
                "visibility_labels": "timeline.statuses.visibility.LABELS",
                "avatar_url": "accounts.avatars.avatar_url",
                "group_name": "timeline.groups.page_reads.group_name",
                "group_avatar_url": "timeline.groups.page_reads.group_avatar_url",
                "group_picker": "timeline.groups.page_reads.group_picker",
                "profile_form_for": "accounts.profile_views.profile_form_for",
                "new_avatar_form": "accounts.profile_views.AvatarForm",
                "authorised_apps": "api.views.oauth.authorised_apps_panel",
                # Polls: a status's poll as its card shows it.
                "poll_of": "timeline.polls.selectors.poll_of",
                # Cards (issue 33): a status's link preview card.
                "link_card_of": "timeline.linkcards.selectors.card_of",
            },
            "filters": {
                "status_text": "timeline.statuses.display.status_text",
                "posted_at": "timeline.statuses.display.posted_at",
                "ago": "timeline.statuses.display.ago",
                "linkify": "timeline.statuses.display.linkify",
                "emojify": "accounts.emojis.emojify",  # custom emojis (apiprefs)
            },
        },
    },
    {
        # The admin's pages, its own and the Redis ones (templates/admin/).
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": CONTEXT_PROCESSORS},
    },
]

# Fields drawn with Jinja2 like the pages, the admin's own widgets with Django templates.
FORM_RENDERER = "socialsite.jinja2.FormRenderer"


def database_from_url(url: str) -> dict:
    """Only postgres:// URLs are understood; SQLite is the default."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL scheme {parts.scheme!r} is not supported")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": parts.path.lstrip("/"),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
    }


DATABASES = {
    "default": (
        database_from_url(os.environ["DATABASE_URL"])
        if os.environ.get("DATABASE_URL")
        else {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH") or VAR_DIR / "db.sqlite3",
            # A file, not memory, so a daphne started by the tests shares it.
            "TEST": {"NAME": VAR_DIR / "test.sqlite3"},
        }
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite makes its file but not the folder: on a fresh clone `manage.py migrate` or
    # createsuperuser (with REDIS_URL set, so no embedded Redis made var/) would fail.
    Path(str(DATABASES["default"]["NAME"])).parent.mkdir(parents=True, exist_ok=True)

# With no REDIS_URL, `make run` starts the embedded server on this socket, so
# manage.py commands run beside it find the same data.
# A cluster: redis+cluster://host:port[,host:port...] (see socialsite.redis).
REDIS_URL = os.environ.get("REDIS_URL") or f"unix://{socket_path(VAR_DIR)}"
try:
    cluster_options(REDIS_URL)  # a cluster URL that names no usable node stops here
except ValueError as error:
    raise ImproperlyConfigured(str(error)) from None
# Check that every Lua script touches only the keys it declares, in one slot (the test
# suites turn it on; see socialsite.scripts).
REDIS_CHECK_SCRIPT_KEYS = os.environ.get("REDIS_CHECK_SCRIPT_KEYS") == "1"

_redis_options = {
    "CLIENT_CLASS": "django_redis.client.DefaultClient",
    "SOCKET_CONNECT_TIMEOUT": 2,
    "SOCKET_TIMEOUT": 5,
}
CACHES = {
    # Cache and sessions (django-redis pickles values, so replies are bytes).
    "default": {
        "BACKEND": "socialsite.redis.RedisCache",
        # A list: django-redis splits a string at commas, and a cluster URL has them.
        "LOCATION": [REDIS_URL],
        "KEY_PREFIX": "cache",
        "OPTIONS": _redis_options,
    },
    # The social network's data: the same server, a pool that decodes replies.
    "data": {
        "BACKEND": "socialsite.redis.RedisCache",
        "LOCATION": [REDIS_URL],
        "OPTIONS": {
            **_redis_options,
            "CONNECTION_POOL_KWARGS": {"decode_responses": True, "max_connections": 200},
        },
    },
}
# Pools per URL and options: "default" and "data" share a URL but not decode_responses.
DJANGO_REDIS_CONNECTION_FACTORY = "socialsite.redis.ConnectionFactory"
# The cache backend, except that an unreachable Redis is an error (a 503), not a logout.
SESSION_ENGINE = "socialsite.sessions"
SESSION_CACHE_ALIAS = "default"

CHANNEL_LAYERS: dict[str, dict] = {}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = ["accounts.backends.CachedUserBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic's copy, made by `make run` and the test run (socialsite.staticfiles):
# each file under a name with its content's hash (css/site.3f2a9c.css), beside a gzip
# copy, so WhiteNoise serves it compressed, cached for a year and more (a new version
# has a new name). One per checkout, not per VAR_DIR: a test run's or the bench's
# throwaway VAR_DIR serves the same files.
STATIC_ROOT = Path(os.environ.get("SOCIALSITE_STATIC_ROOT", BASE_DIR / "var" / "static"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # DJANGO_DEBUG: plain names, so an edited file shows without a collectstatic.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# WhiteNoise also serves static/ through the finders, under the plain names (which
# nothing links to but which old pages may still ask for).
WHITENOISE_USE_FINDERS = True
# Files browsers ask for at the site's root (/favicon.ico), served there by WhiteNoise.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
warnings.filterwarnings("ignore", message=f"No directory at: {STATIC_ROOT}")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Uploaded files (avatars) go through Django's storage API: by default files under
# MEDIA_ROOT, served by the site itself while SERVE_MEDIA is on; in production a proxy
# serves MEDIA_ROOT, or STORAGES["default"] names a django-storages backend.
MEDIA_ROOT = Path(os.environ.get("SOCIALSITE_MEDIA_DIR", VAR_DIR / "media"))
MEDIA_URL = "/media/"
SERVE_MEDIA = env_bool("SOCIALSITE_SERVE_MEDIA", True)
# Origins a storage backend serves the avatars from (https://media.example ...): the pages'
# Content-Security-Policy lets their pictures load (socialsite/middleware.py).
MEDIA_ORIGINS = os.environ.get("SOCIALSITE_MEDIA_ORIGINS", "").split()
for _origin in MEDIA_ORIGINS:
    if not re.fullmatch(r"https?://[a-z0-9.-]+(:[0-9]{1,5})?", _origin):
        raise ImproperlyConfigured(
            f"SOCIALSITE_MEDIA_ORIGINS holds origins such as https://media.example, not {_origin!r}"
        )
# Uploads up to this size are kept in memory (an avatar is at most 2 MB).
FILE_UPLOAD_MAX_MEMORY_SIZE = 3 * 1024 * 1024

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# The social network (read at call time, so tests may override them).
HOME_TIMELINE_SIZE = int(os.environ.get("HOME_TIMELINE_SIZE", 1000))
POSTS_PER_PASS = int(os.environ.get("POSTS_PER_PASS", 1000))
# Fan-out trims a follower's home on about one delivery in this many (by uid and status
# id), so a home may hold up to about this many entries more than HOME_TIMELINE_SIZE.
HOME_TRIM_EVERY = int(os.environ.get("HOME_TRIM_EVERY", 32))
# Homes not read for this many days are dropped (manage.py drop_inactive_homes) and
# rebuilt when their owner returns; a read is recorded at most once this many seconds.
HOME_INACTIVE_DAYS = float(os.environ.get("HOME_INACTIVE_DAYS", 14))
HOME_READ_RESOLUTION = int(os.environ.get("HOME_READ_RESOLUTION", 3600))
# Followers past the first pass are reached by background jobs of this many each.
FAN_OUT_JOB_SIZE = int(os.environ.get("FAN_OUT_JOB_SIZE", 10_000))
# A user's followers are kept in pieces of at most this many (timeline.follow_sets.followers): at
# or under zset-max-ziplist-entries each is a compact listpack, ~12 B a follower.
FOLLOWERS_PIECE_SIZE = int(os.environ.get("FOLLOWERS_PIECE_SIZE", 250))
# A user's following set is one key up to this many follows; past it they move into
# buckets by followee (timeline.follow_sets.following), each a compact listpack.
FOLLOWING_SPLIT = int(os.environ.get("FOLLOWING_SPLIT", 1000))
# Refilling a home after an unfollow reads up to HOME_TIMELINE_SIZE statuses of
# each person followed, so it takes fewer people per pass than fan-out.
REFILL_FOLLOWEES_PER_PASS = int(os.environ.get("REFILL_FOLLOWEES_PER_PASS", 100))
GLOBAL_TIMELINE_SIZE = 1000
# Keep (timeline/keeps): statuses pinned atop a profile (as Mastodon), and tags one
# user may follow.
PINS_MAX = 5
FOLLOWED_TAGS_MAX = int(os.environ.get("FOLLOWED_TAGS_MAX", 500))
# Statuses kept in each process (timeline.statuses.cache); 0 keeps none.
STATUS_CACHE_SIZE = int(os.environ.get("STATUS_CACHE_SIZE", 20_000))
STATUS_MAX_LENGTH = 280
# Edits (timeline.edits): the most earlier versions a status keeps; an edit past them is
# refused (each is a version of at most STATUS_MAX_LENGTH characters in its slot).
STATUS_VERSIONS_KEPT = int(os.environ.get("STATUS_VERSIONS_KEPT", "20"))
# An edit tells up to this many likers, reposters and repliers inside the request; more,
# and a job tells them all (each is a script in the recipient's slot).
EDIT_NOTIFICATIONS_INLINE = int(os.environ.get("EDIT_NOTIFICATIONS_INLINE", "20"))
STATUSES_PER_PAGE = 30
# Home ordered by importance, "Top" (timeline/ranking): the home entries of the last
# TOP_WINDOW_HOURS (at most TOP_CANDIDATES of its newest) scored by engagement, the
# reader's affinity with the author and freshness. TOP_WEIGHTS (docs/operations.md) may
# be overridden in part by the environment, e.g. TOP_WEIGHTS="affinity=2,freshness=0.5".
TOP_WINDOW_HOURS = float(os.environ.get("TOP_WINDOW_HOURS", 48))
TOP_CANDIDATES = int(os.environ.get("TOP_CANDIDATES", 300))
TOP_WEIGHTS = {
    # Engagement: each like, repost, reply and quote of the status...
    "like": 1.0,
    "repost": 2.0,
    "reply": 2.0,
    "quote": 2.0,
    # ...halving every this many hours of its age.
    "engagement_half_life_hours": 12.0,
    # The reader's affinity with the author: each of their likes, replies, reposts and
    # profile visits of the author (halving every two weeks: timeline.ranking.affinity).
    "affinity_like": 1.0,
    "affinity_reply": 3.0,
    "affinity_repost": 2.0,
    "affinity_visit": 0.5,
    # How the three parts add up (each on a log scale but freshness, 1 new to 0 old).
    "engagement": 1.0,
    "affinity": 1.5,
    "freshness": 1.0,
    "freshness_half_life_hours": 6.0,
}
for _part in filter(None, os.environ.get("TOP_WEIGHTS", "").split(",")):
    _name, _, _value = (text.strip() for text in _part.partition("="))
    if _name not in TOP_WEIGHTS:
        raise ImproperlyConfigured(f"TOP_WEIGHTS has no weight {_name!r}")
    TOP_WEIGHTS[_name] = float(_value)
# Notifications kept per user (the oldest go), and shown a page (before grouping).
NOTIFICATIONS_KEPT = 1000
# Subscribers (followers with notify on) one notify_subscribers job tells of a new status.
SUBSCRIBERS_PER_JOB = int(os.environ.get("SUBSCRIBERS_PER_JOB", "500"))
NOTIFICATIONS_PER_PAGE = 40
# A report on a group's post waits for the group's moderators this long; left open, it
# goes to the site's moderation queue (timeline.reports.groups).
GROUP_REPORT_ESCALATE_SECONDS = int(os.environ.get("GROUP_REPORT_ESCALATE_SECONDS", 86_400))
# Direct messages: people in a conversation (you included), and messages a page.
CONVERSATION_MAX_MEMBERS = 50
MESSAGES_PER_PAGE = 50
# Search (timeline/search): status ids a shard of the word index holds (each shard one
# cluster slot; it keeps offsets of 2 bytes, so at most 65,536; fixed once statuses are
# indexed), the most statuses a word keeps in its shard's bucket before it gets its own
# set, and how deep a search may page.
SEARCH_SHARD_STATUSES = int(os.environ.get("SEARCH_SHARD_STATUSES", 65_536))
if not 1 <= SEARCH_SHARD_STATUSES <= 65_536:
    raise ImproperlyConfigured(
        f"SEARCH_SHARD_STATUSES must be 1 to 65,536, not {SEARCH_SHARD_STATUSES}"
    )
SEARCH_BUCKET_IDS = 64
SEARCH_MAX_RESULTS = 1000
# Pages one user may have open on the /live/ socket at once, per server process.
LIVE_SOCKETS_PER_USER = int(os.environ.get("LIVE_SOCKETS_PER_USER", 10))
# A background job not acknowledged within this time is taken over by another worker.
JOB_CLAIM_IDLE_MS = int(os.environ.get("JOB_CLAIM_IDLE_MS", 30_000))
JOB_MAX_ATTEMPTS = 5
# Web Push (apipush): VAPID keys, endpoints allowed, the subscribers' copy.
from socialsite.push_settings import (  # noqa: E402, F401  (settings, by name)
    PUSH_ALLOW_HTTP,
    PUSH_SUBSCRIBERS_RECHECK_SECONDS,
    PUSH_TIMEOUT_SECONDS,
    PUSH_TTL_SECONDS,
    VAPID_CONTACT,
    VAPID_PRIVATE_KEY,
)

# The streaming API (read at call time, so tests may override them).
STREAM_CONNECTIONS_PER_KEY = int(os.environ.get("STREAM_CONNECTIONS_PER_KEY", 2))
# Streams open at once from one client address, whatever their keys or sessions.
STREAM_CONNECTIONS_PER_IP = int(os.environ.get("STREAM_CONNECTIONS_PER_IP", 20))
# A stream silent this long gets a keep-alive newline (HTTP), so proxies keep it open.
STREAM_KEEPALIVE_SECONDS = float(os.environ.get("STREAM_KEEPALIVE_SECONDS", 30))
# How often an open stream renews its place and notices a revoked key or a suspension.
STREAM_HEARTBEAT_SECONDS = 2.0
# Lines a stream may fall behind the event channel before it is dropped as too slow.
STREAM_QUEUE_SIZE = 1000
# Bytes the server may hold unsent for a stream's client (one that reads slowly or not
# at all) before the stream stops taking lines off its queue, which then fills.
STREAM_SEND_BUFFER_BYTES = 256 * 1024
# Seconds a client dropped as too slow has to read its last line before the server cuts
# its connection.
STREAM_DROPPED_GRACE_SECONDS = float(os.environ.get("STREAM_DROPPED_GRACE_SECONDS", 10))
STREAM_KEYS_PER_USER = 10
# daphne pings each WebSocket client this often and drops one whose pong doesn't come
# within the timeout (daphne's own defaults).
WEBSOCKET_PING_INTERVAL = 20
WEBSOCKET_PING_TIMEOUT = 30


def env_positive(name: str, default: str) -> float:
    """A finite number from the environment that must be more than 0."""
    value = os.environ.get(name, default)
    try:
        number = float(value)
    except ValueError:
        number = 0
    if not 0 < number < math.inf:
        raise ImproperlyConfigured(f"{name} must be a number more than 0, not {value!r}")
    return number


# Slow clients (slowloris; socialsite.daphne_server): seconds for a request's line and
# headers (and for a kept-alive connection's wait for its next request), seconds for its
# body, put off a second by each HTTP_BODY_MIN_RATE bytes received (mod_reqtimeout's).
HTTP_HEADER_TIMEOUT = env_positive("HTTP_HEADER_TIMEOUT", "20")
HTTP_BODY_TIMEOUT = env_positive("HTTP_BODY_TIMEOUT", "20")
HTTP_BODY_MIN_RATE = env_positive("HTTP_BODY_MIN_RATE", "500")


def env_rate(name: str, default: str) -> tuple[int, int]:
    """A rate limit from the environment: "count/seconds" (e.g. "30/300")."""
    value = os.environ.get(name, default)
    try:
        count, seconds = (int(part) for part in value.split("/"))
    except ValueError:
        raise ImproperlyConfigured(f'{name} must be "count/seconds", e.g. "{default}"') from None
    if count < 1 or seconds < 1:
        raise ImproperlyConfigured(f"{name}: count and seconds must be at least 1")
    return count, seconds


# Rate limits (socialsite.ratelimit): (count, seconds) = `count` actions in any
# `seconds`, then one more every seconds/count. Each is RATE_LIMIT_<NAME> in the
# environment; read at call time, so tests may override them.
# The test run raises this one (socialsite.testing.plugin): its tests read as visitors.
ANONYMOUS_READS_DEFAULT = "300/60"
RATE_LIMITS = {
    # Failed logins: per login typed, and per client address. Once either is
    # reached, logins are refused before the password is checked (no hashing).
    # Per login, only tries from browsers without a device cookie for it (accounts.devices):
    # the owner's browser keeps its right to try while strangers guess.
    "login_failures_per_login": env_rate("RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN", "10/900"),
    # Per device cookie: tries from a browser that logged in as the login before.
    "login_failures_per_device": env_rate("RATE_LIMIT_LOGIN_FAILURES_PER_DEVICE", "10/900"),
    "login_failures_per_ip": env_rate("RATE_LIMIT_LOGIN_FAILURES_PER_IP", "30/300"),
    "signups_per_ip": env_rate("RATE_LIMIT_SIGNUPS_PER_IP", "5/3600"),
    # Per account:
    "posts": env_rate("RATE_LIMIT_POSTS", "30/300"),  # statuses and replies
    "edits": env_rate("RATE_LIMIT_EDITS", "30/300"),  # edits of statuses (timeline.edits)
    "follows": env_rate("RATE_LIMIT_FOLLOWS", "30/300"),  # follows and unfollows
    "reactions": env_rate("RATE_LIMIT_REACTIONS", "60/300"),  # likes, reposts, undoing them
    "poll_votes": env_rate("RATE_LIMIT_POLL_VOTES", "60/300"),  # votes in polls
    "list_changes": env_rate("RATE_LIMIT_LIST_CHANGES", "60/300"),
    "stream_keys": env_rate("RATE_LIMIT_STREAM_KEYS", "10/3600"),  # stream keys made
    # Tries (each checks the current password: a hash) to change the password.
    "password_changes": env_rate("RATE_LIMIT_PASSWORD_CHANGES", "10/3600"),
    "messages": env_rate("RATE_LIMIT_MESSAGES", "60/300"),  # direct messages sent
    # Blocks, mutes and the privacy settings (timeline.safety).
    "safety": env_rate("RATE_LIMIT_SAFETY", "60/300"),
    "reports": env_rate("RATE_LIMIT_REPORTS", "20/3600"),  # reports filed
    "group_creations": env_rate("RATE_LIMIT_GROUP_CREATIONS", "5/3600"),  # groups made
    # Groups joined (or asked to join) from the group pages.
    "group_joins": env_rate("RATE_LIMIT_GROUP_JOINS", "30/300"),
    # Keep: bookmarks, pins and followed tags, made or taken back (pages and API).
    "keeps": env_rate("RATE_LIMIT_KEEPS", "60/300"),
    # Web Push subscriptions made, changed or removed through the API (apipush).
    "push_subscriptions": env_rate("RATE_LIMIT_PUSH_SUBSCRIPTIONS", "30/300"),
    # Tries (each checks the password: a hash) to delete the account.
    "account_deletions": env_rate("RATE_LIMIT_ACCOUNT_DELETIONS", "5/3600"),
    "exports": env_rate("RATE_LIMIT_EXPORTS", "5/3600"),  # data exports downloaded
    # Searches with a query (pages and API), per account or, for visitors, per address:
    # a status search may read every shard of the word index.
    "searches": env_rate("RATE_LIMIT_SEARCHES", "30/60"),
    # Client apps registered through the API (POST /api/v1/apps), per client address.
    "apps_per_ip": env_rate("RATE_LIMIT_APPS_PER_IP", "30/3600"),
    # Display name, bio, website and location saved (settings page and API), per account.
    "profile_changes": env_rate("RATE_LIMIT_PROFILE_CHANGES", "20/3600"),
    # Avatars uploaded or removed, per account: each upload is a decode.
    "avatar_changes": env_rate("RATE_LIMIT_AVATAR_CHANGES", "10/3600"),
    # Media uploaded for statuses (timeline.media), per account: each is a decode, a
    # video a transcode in the worker.
    "media": env_rate("RATE_LIMIT_MEDIA", "30/1800"),
    # A group's moderators' acts: requests answered, roles, members removed or banned,
    # pins, posts removed, reports handled, ownership, the group's avatar, its deletion.
    "group_moderation": env_rate("RATE_LIMIT_GROUP_MODERATION", "60/300"),
    # The settings page's other saves, per account: log out everywhere, stream keys and
    # apps revoked.
    "settings_changes": env_rate("RATE_LIMIT_SETTINGS_CHANGES", "30/300"),
    # Client preferences (apiprefs): read positions saved by apps (often: each scroll),
    # and filters made or changed (API and settings page).
    "markers": env_rate("RATE_LIMIT_MARKERS", "300/300"),
    "filter_changes": env_rate("RATE_LIMIT_FILTER_CHANGES", "60/300"),
    # Pages and API reads (GET, HEAD) by a visitor (no session user, no token), per
    # address: a burst no reader makes (static files, media and streams don't count).
    "anonymous_reads": env_rate("RATE_LIMIT_ANONYMOUS_READS", ANONYMOUS_READS_DEFAULT),
}
# A login from an address over its failures limit, or a visitor's read from an address
# over its reads limit, is refused before it reaches Django, after this delay
# (socialsite.ratelimit.refuse_early, refuse_anonymous_reads).
RATE_LIMITED_DELAY_SECONDS = float(os.environ.get("RATE_LIMITED_DELAY_SECONDS", 1))
# How long a process keeps its copy of the custom emojis (accounts.emojis): a change made
# in another process shows within this many seconds.
CUSTOM_EMOJIS_KEPT_SECONDS = float(os.environ.get("CUSTOM_EMOJIS_KEPT_SECONDS", "10"))
# A browser that logs in gets a signed cookie naming the login (accounts.devices), kept
# this long, sent only to the login page.
DEVICE_COOKIE_NAME = "device"
DEVICE_COOKIE_DAYS = 365

# The Mastodon client API's OAuth 2 provider (django-oauth-toolkit; see api/oauth.py).
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER: dict[str, Any] = {
    "SCOPES": {
        "read": "Read your timelines, statuses, lists and notifications",
        "write": "Post, delete, like and repost statuses, and manage your lists",
        "follow": "Follow and unfollow people",
        "push": "Receive your notifications as push messages",
    },
    "DEFAULT_SCOPES": ["read"],
    # Mastodon's tokens don't expire; its apps keep one until it is revoked.
    "ACCESS_TOKEN_EXPIRE_SECONDS": 10 * 365 * 24 * 3600,
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 600,
    # PKCE (S256) is taken, not demanded: most Mastodon apps don't send it.
    "PKCE_REQUIRED": False,
    # "urn" for urn:ietf:wg:oauth:2.0:oob, the code shown on the page (api.views.oauth).
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "urn"],
    "OAUTH2_VALIDATOR_CLASS": "api.oauth.MastodonValidator",
    "OAUTH2_BACKEND_CLASS": "api.oauth.FormOrJsonOAuthLibCore",
    # The OAuth 2.0 Security BCP (RFC 9700), as `check --deploy` asks: no implicit or
    # password grant, PKCE by S256 only, tokens never in URLs (the streaming socket's
    # access_token parameter is Mastodon's, read by api.consumers), `iss` in the
    # authorization response, tokens stored hashed, refresh-token replay detection.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
}
# Two of its advices the client API departs from on purpose, as Mastodon does: http
# redirect URIs (apps' loopback callbacks, RFC 8252) and PKCE taken, not demanded.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008", "oauth2_provider.W010"]

# Media attachments' limits (timeline.media): the quota, a request's uploads, the
# unattached uploads' lifetime.
from socialsite.media_settings import *  # noqa: E402, F403

# `make run` seeds a small demo network into a store where nothing was ever posted.
DEMO_NETWORK = env_bool("DEMO_NETWORK", True)
