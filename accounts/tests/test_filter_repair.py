"""The repair command's check of users' filters (accounts.filter_repair): raw damage is
written here with the keys this module owns."""

from accounts import filters
from accounts.keys import filters_key
from timeline.ops import maintenance


def checks(report) -> list[tuple[str, str, str]]:
    return sorted((f.check, f.key, f.problem) for f in report.findings if f.check == "filters")


def test_repair_finds_nothing_wrong_with_healthy_filters(alice):
    filters.create_filter(alice.uid, title="t", context=["home"], keywords=[("a", True)])
    report = maintenance.repair()
    assert checks(report) == [] and report.checked["filters"] == 1


def test_repair_mends_unreadable_filters_low_ids_and_strays(alice, redis_conn):
    made = filters.create_filter(alice.uid, title="t", context=["home"], keywords=[("a", True)])
    key = filters_key(alice.uid)
    redis_conn.hset(key, mapping={"99": "{not json", "next_id": 1})
    redis_conn.hset(filters_key(424242), "1", "{}")
    found = checks(maintenance.repair())
    assert sorted(found) == sorted(
        [
            ("filters", filters_key(424242), "belongs to no user"),
            ("filters", key, "holds an unreadable filter 99"),
            ("filters", key, "next_id is below 2, an id in use"),
        ]
    )
    assert len(checks(maintenance.repair(fix=True))) == 3
    assert checks(maintenance.repair()) == []
    assert filters.list_filters(alice.uid) == [made]
    # Ids handed out after the fix don't repeat.
    assert filters.add_keyword(alice.uid, made["id"], "b")["id"] == "3"
