"""The runner of the Redis data migrations: where a store's version starts, the order
and the recording of each step, and what `manage.py migrate` and `make run` say."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts import services as account_services
from timeline import data_migrations, keys
from timeline.data_migrations import DataMigration, all_migrations, migrate_data, stored_version

pytestmark = pytest.mark.django_db

NEWEST = len(all_migrations())


def migrate() -> str:
    out = StringIO()
    call_command("migrate", verbosity=0, stdout=out)
    return out.getvalue()


def recording(monkeypatch, fail_at: int | None = None) -> list[int]:
    """Swaps each migration's work for one that notes its number (and raises at
    `fail_at`); returns the notes."""
    ran: list[int] = []

    def step(number: int):
        def apply(say) -> None:
            if number == fail_at:
                raise RuntimeError(f"stopped in {number}")
            ran.append(number)
            say(f"  did {number}")

        return apply

    real = all_migrations()
    swapped = [DataMigration(m.number, m.description, step(m.number)) for m in real]
    monkeypatch.setattr(data_migrations, "all_migrations", lambda: swapped)
    return ran


def test_migrations_are_numbered_from_one_with_no_gap_and_say_what_they_do():
    migrations = all_migrations()
    assert [m.number for m in migrations] == list(range(1, NEWEST + 1))
    assert all(m.description and "\n" not in m.description for m in migrations)


def test_a_new_empty_store_is_stamped_at_the_newest_version_and_nothing_is_said(redis_conn):
    assert stored_version(redis_conn) is None
    assert migrate() == ""
    assert redis_conn.get(keys.DATA_VERSION) == str(NEWEST)
    assert migrate() == ""


def test_a_store_with_users_and_no_version_was_written_before_versions(
    redis_conn, make_user, monkeypatch
):
    make_user()
    redis_conn.delete(keys.DATA_VERSION)
    assert stored_version(redis_conn) == 0
    ran = recording(monkeypatch)
    assert migrate_data() == list(range(1, NEWEST + 1))
    assert ran == list(range(1, NEWEST + 1))
    assert redis_conn.get(keys.DATA_VERSION) == str(NEWEST)


def test_a_store_at_an_older_version_is_upgraded_step_by_step_saying_each(redis_conn, monkeypatch):
    redis_conn.set(keys.DATA_VERSION, NEWEST - 2)
    ran = recording(monkeypatch)
    said = migrate().splitlines()
    assert ran == [NEWEST - 1, NEWEST]
    described = {m.number: m.description for m in all_migrations()}
    assert said == [
        f"Redis data migration {NEWEST - 1:04d}: {described[NEWEST - 1]}",
        f"  did {NEWEST - 1}",
        f"Redis data migration {NEWEST:04d}: {described[NEWEST]}",
        f"  did {NEWEST}",
    ]
    assert redis_conn.get(keys.DATA_VERSION) == str(NEWEST)
    assert migrate() == ""  # run once


def test_a_run_stopped_part_way_records_what_was_done_and_goes_on_from_there(
    redis_conn, monkeypatch
):
    account_services.create_user("written_before", "Before")
    ran = recording(monkeypatch, fail_at=3)
    with pytest.raises(RuntimeError, match="stopped in 3"):
        migrate_data()
    assert ran == [1, 2]
    assert redis_conn.get(keys.DATA_VERSION) == "2"
    ran = recording(monkeypatch)
    assert migrate_data() == list(range(3, NEWEST + 1))
    assert ran == list(range(3, NEWEST + 1))


def test_a_store_newer_than_the_code_is_left_as_it_is(redis_conn, monkeypatch):
    redis_conn.set(keys.DATA_VERSION, NEWEST + 1)
    ran = recording(monkeypatch)
    assert migrate() == ""
    assert ran == []
    assert redis_conn.get(keys.DATA_VERSION) == str(NEWEST + 1)


def test_migrate_plan_applies_no_data_migration(redis_conn):
    call_command("migrate", plan=True, stdout=StringIO())
    assert redis_conn.get(keys.DATA_VERSION) is None
