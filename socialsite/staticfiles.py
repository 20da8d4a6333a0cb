"""The static files as served: collectstatic's copy in STATIC_ROOT, under hashed names
with gzip copies (STORAGES["staticfiles"]), made again only when static/ changed.

`make run` (socialsite.launcher), the test run (conftest.py) and the bench call
`collect()` before serving; processes that start together (pytest-xdist's workers)
take turns on a lock, and the first one's copy serves them all."""

import fcntl
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

MANIFEST = "staticfiles.json"


def newest_source() -> float:
    """The newest modification time under STATICFILES_DIRS (a file added or removed
    changes its directory's)."""
    return max(
        path.stat().st_mtime
        for folder in settings.STATICFILES_DIRS
        for path in [Path(folder), *Path(folder).rglob("*")]
    )


def collect() -> bool:
    """Runs collectstatic unless STATIC_ROOT's manifest is newer than every source;
    True if it ran."""
    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f".{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        manifest = root / MANIFEST
        if manifest.exists() and manifest.stat().st_mtime >= newest_source():
            return False
        call_command("collectstatic", interactive=False, verbosity=0)
        manifest.touch(exist_ok=True)
        return True
