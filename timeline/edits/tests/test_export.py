import json

from timeline.edits.services import edit_status
from timeline.posting import services as posting


def test_the_export_has_an_edited_statuses_earlier_versions(alice):
    plain = posting.post_status(alice.uid, "never edited")
    edited = posting.post_status(alice.uid, "first")
    edit_status(alice.uid, edited, "second", spoiler_text="careful")
    edit_status(alice.uid, edited, "third")
    data = json.loads(b"".join(alice.client.post("/export/")))
    by_id = {status["id"]: status for status in data["statuses"]}
    assert "versions" not in by_id[plain] and "edited" not in by_id[plain]
    shown = by_id[edited]
    assert shown["message"] == "third" and shown["edited"]
    assert [v["message"] for v in shown["versions"]] == ["first", "second"]
    assert shown["versions"][1]["spoiler_text"] == "careful"
    assert shown["versions"][0]["since"] == by_id[edited]["posted"]
