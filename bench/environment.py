"""The environment a bench run (make bench, the site audit) sets before Django starts:
its throwaway Redis, and that server's directory for SQLite and logs."""

import os
from pathlib import Path


def use_throwaway(redis_url: str, data_dir: Path) -> None:
    """Points this process (and the daphnes it starts) at `redis_url`, with `data_dir`
    for SQLite and logs: never a database the environment names (DATABASE_URL,
    SQLITE_PATH), which the bench would fill with its users (and a cluster run beside it
    would share). Then sets Django up."""
    os.environ["REDIS_URL"] = redis_url
    os.environ["SOCIALSITE_VAR_DIR"] = str(data_dir)
    for name in ("DATABASE_URL", "SQLITE_PATH"):
        os.environ.pop(name, None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "socialsite.settings"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
