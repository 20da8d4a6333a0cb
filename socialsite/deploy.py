"""The secret key settings use, and the refusal to run production on a weak one.

Why a module of its own: the rule is testable without reloading settings, and
settings.py stays a list of values.
"""

import os
import secrets
import sys
from pathlib import Path

from django.core.checks.security.base import SECRET_KEY_INSECURE_PREFIX

# The key this repository once shipped: public, so never acceptable with DEBUG off.
DEVELOPMENT_KEY = "dev-only-insecure-key-change-me-in-production"
KEY_FILE_NAME = "secret_key"


def _is_weak(key: str) -> bool:
    """Django's own rule for check --deploy's W009 (length, variety, known prefix)."""
    return (
        key == DEVELOPMENT_KEY
        or key.startswith(SECRET_KEY_INSECURE_PREFIX)
        or len(key) < 50
        or len(set(key)) < 5
    )


def machine_key(var_dir: Path) -> str:
    """This machine's own random key, made once in var_dir (mode 0600) and kept.

    Why: a fresh clone's `make run`, `manage.py migrate` and the tests need a key, and a
    key in the repository is public. One made here is private to the machine; sessions
    survive restarts. Several servers behind one site need the same DJANGO_SECRET_KEY.
    """
    path = var_dir / KEY_FILE_NAME
    if not path.exists():
        write_private_once(path, secrets.token_urlsafe(48).encode())
    return path.read_text().strip()


def write_private_once(path: Path, content: bytes) -> None:
    """Makes `path` (mode 0600, its folder too if need be) holding `content`, unless it
    exists: when two processes start together, the first one's file is everyone's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: read theirs
        return
    with os.fdopen(fd, "wb") as f:
        f.write(content)


def secret_key(environ, var_dir: Path, debug: bool) -> str:
    """DJANGO_SECRET_KEY, else the machine's key; refuses to start on a weak key.

    With DEBUG off a weak key (the old development key, a short or repetitive one) ends
    the process with one clear line instead of a traceback: anyone who knows the key can
    forge sessions and password-reset links.
    """
    key = environ.get("DJANGO_SECRET_KEY") or machine_key(var_dir)
    if not debug and _is_weak(key):
        sys.exit(
            "socialsite: refusing to start: DJANGO_SECRET_KEY is weak or the public "
            "development key. Set it to 50+ random characters, e.g. "
            "`python -c 'import secrets; print(secrets.token_urlsafe(48))'`, "
            "or unset it to use this machine's generated key (var/secret_key)."
        )
    return key
