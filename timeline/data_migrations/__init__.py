"""Numbered, run-once upgrades of the data kept in Redis, as Django's migrations are of
the database's schema. `manage.py migrate` (so `make run`) applies them after the
schema's (timeline/management/commands/migrate.py).

Each migration is a module of this package named `NNNN_what_it_does.py` holding
DESCRIPTION (one line) and `apply(say)`, which upgrades every key of one older layout
and says what it did through `say`. keys.DATA_VERSION holds the number of the newest
migration applied; the runner applies those above it in order, recording each number
as soon as its migration is done. Every migration is idempotent and made of steps that
each touch one hash slot, so a run stopped part way is run again safely, on one server
or a cluster.

Where the version starts:
- a store with keys.DATA_VERSION is at that version;
- a store without it but with a user ever made (accounts.keys.USER_ID_COUNTER) was
  written before versions existed, in any older layout: it is at version 0, and every
  migration runs;
- an empty store (no version, no user) is new: it is stamped at the newest version at
  once, and nothing is said.

A store at a version newer than the newest migration here (written by newer code) is
left as it is."""

import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import dataclass

from accounts.keys import USER_ID_COUNTER
from socialsite.redis import Client, get_redis

from .. import keys

Say = Callable[[str], None]

# A migration's module name: its number, then what it does.
MIGRATION_NAME = re.compile(r"^(\d{4})_\w+$")


@dataclass(frozen=True, slots=True)
class DataMigration:
    """One upgrade: its number, what it does (one line), and the function doing it."""

    number: int
    description: str
    apply: Callable[[Say], None]


def all_migrations() -> list[DataMigration]:
    """Every migration of this package, by number."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        named = MIGRATION_NAME.match(module.name)
        if named:
            loaded = importlib.import_module(f"{__name__}.{module.name}")
            found.append(DataMigration(int(named[1]), loaded.DESCRIPTION, loaded.apply))
    found.sort(key=lambda migration: migration.number)
    numbers = [migration.number for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"data migrations must be numbered 1, 2, 3... with no gap: {numbers}")
    return found


def stored_version(conn: Client) -> int | None:
    """The store's version (see above); None for a new, empty store."""
    version = conn.get(keys.DATA_VERSION)
    if version is not None:
        return int(version)
    return 0 if conn.exists(USER_ID_COUNTER) else None


def migrate_data(say: Say = lambda _: None) -> list[int]:
    """Applies, in order, the migrations above the store's version, each recorded once
    done (a new store is stamped at the newest version); returns the numbers applied."""
    conn, migrations = get_redis(), all_migrations()
    version = stored_version(conn)
    if version is None:
        # NX: never overwrites a version another `migrate` recorded meanwhile.
        conn.set(keys.DATA_VERSION, migrations[-1].number, nx=True)
        return []
    applied = []
    for migration in migrations:
        if migration.number <= version:
            continue
        say(f"Redis data migration {migration.number:04d}: {migration.description}")
        migration.apply(say)
        conn.set(keys.DATA_VERSION, migration.number)
        applied.append(migration.number)
    return applied
