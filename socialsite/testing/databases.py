"""The test run's ORM database, as other processes (daphne, manage.py) must find it."""

import os

from django.conf import settings


def subprocess_database_env() -> dict[str, str]:
    """The environment that points a subprocess's settings at this run's test database."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return {"SQLITE_PATH": str(database["NAME"])}
    server = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    return {"DATABASE_URL": f"{server}/{database['NAME']}"}
