"""Production settings: a weak key refuses to start; SOCIALSITE_TLS=1 passes check --deploy."""

import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings

from socialsite.deploy import DEVELOPMENT_KEY, machine_key, secret_key


def manage(tmp_path, *args, **env):
    environ = {**os.environ, "SOCIALSITE_VAR_DIR": str(tmp_path / "var"), **env}
    for name in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY", "SOCIALSITE_TLS", "SQLITE_PATH"):
        if name not in env:
            environ.pop(name, None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_tls_switch_and_a_real_key_pass_check_deploy(tmp_path):
    done = manage(
        tmp_path,
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SOCIALSITE_TLS="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(48),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_without_the_tls_switch_check_deploy_still_warns(tmp_path):
    done = manage(tmp_path, "check", "--deploy", DJANGO_SECRET_KEY=secrets.token_urlsafe(48))
    assert "security.W008" in done.stdout + done.stderr


def test_the_development_key_refuses_to_start_with_one_line(tmp_path):
    done = manage(tmp_path, "check", DJANGO_SECRET_KEY=DEVELOPMENT_KEY)
    assert done.returncode == 1
    assert done.stderr.startswith("socialsite: refusing to start")
    assert "Traceback" not in done.stderr


def test_debug_may_use_a_weak_key(tmp_path):
    assert secret_key({"DJANGO_SECRET_KEY": "short"}, tmp_path, debug=True) == "short"


@pytest.mark.parametrize("key", ["short", "a" * 60, DEVELOPMENT_KEY])
def test_weak_keys_are_refused_without_debug(tmp_path, key):
    with pytest.raises(SystemExit):
        secret_key({"DJANGO_SECRET_KEY": key}, tmp_path, debug=False)


def test_no_key_means_this_machines_private_key_kept_across_starts(tmp_path):
    first = secret_key({}, tmp_path / "var", debug=False)
    assert first == secret_key({}, tmp_path / "var", debug=False) == machine_key(tmp_path / "var")
    assert len(first) >= 50
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0
    assert secret_key({}, tmp_path / "other", debug=False) != first
