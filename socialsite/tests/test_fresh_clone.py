"""What a fresh clone runs before anything made var/: the README's manage.py commands."""

import os
import subprocess
import sys

from django.conf import settings


def test_migrate_makes_the_var_folder_it_needs(tmp_path):
    var = tmp_path / "not" / "made" / "yet"
    env = {
        **os.environ,
        "SOCIALSITE_VAR_DIR": str(var),
        "DJANGO_SETTINGS_MODULE": "socialsite.settings",
    }
    # SQLite's file is what a fresh clone makes (the cluster suite's PostgreSQL is not).
    env.pop("SQLITE_PATH", None)
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (var / "db.sqlite3").is_file()
