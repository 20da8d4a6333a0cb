from timeline import keys
from timeline.edits.services import edit_status
from timeline.ops import maintenance
from timeline.posting import services as posting


def test_repair_drops_the_versions_of_a_status_that_is_gone(alice, redis_conn):
    kept, gone = (posting.post_status(alice.uid, text) for text in ("kept", "gone"))
    for status_id in (kept, gone):
        edit_status(alice.uid, status_id, "edited")
    assert maintenance.repair().checked["versions"] == 2
    # A deletion whose clean-up never ran, known to the timelines' check as well.
    redis_conn.delete(keys.status_key(gone))
    report = maintenance.repair()
    found = [f.key for f in report.findings if f.check == "versions"]
    assert found == [keys.status_versions_key(gone)]
    assert redis_conn.exists(keys.status_versions_key(gone))  # reporting changes nothing
    maintenance.repair(fix=True)
    assert not redis_conn.exists(keys.status_versions_key(gone))
    assert redis_conn.exists(keys.status_versions_key(kept))
    assert maintenance.repair().findings == []
