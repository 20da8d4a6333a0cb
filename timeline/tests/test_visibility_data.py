"""Visibility per post in the account's data: the export carries each status's
visibility and warning, the repair command finds a status whose marks or places disagree
with its visibility, and only public statuses trend."""

import json

from timeline import keys
from timeline.discovery import activity
from timeline.explore import selectors as explore
from timeline.graph import services as graph
from timeline.ops import maintenance
from timeline.posting import services as posting
from timeline.posting.preferences import set_posting_preferences
from timeline.reactions import services as reactions
from timeline.statuses.selectors import get_status


def download(client) -> dict:
    return json.loads(b"".join(client.post("/export/")))


def test_the_export_carries_each_statuss_visibility_warning_and_the_settings(alice):
    set_posting_preferences(alice.uid, default_visibility="unlisted", expand_warnings=True)
    public = posting.post_status(alice.uid, "everyone", visibility="public")
    warned = posting.post_status(alice.uid, "ending", visibility="private", spoiler_text="CW")
    data = download(alice.client)
    statuses = {s["id"]: s for s in data["statuses"]}
    assert "visibility" not in statuses[public]
    assert statuses[warned]["visibility"] == "private"
    assert (statuses[warned]["spoiler_text"], statuses[warned]["sensitive"]) == ("CW", "1")
    assert data["profile"]["default_visibility"] == "unlisted"
    assert data["profile"]["expand_warnings"] == "1"


def test_repair_finds_and_fixes_a_status_whose_marks_disagree_with_its_visibility(
    alice, redis_conn
):
    private = posting.post_status(alice.uid, "friends", visibility="private")
    unlisted = posting.post_status(alice.uid, "#quiet one", visibility="unlisted")
    assert maintenance.repair().findings == []
    redis_conn.hdel(keys.status_key(private), keys.PRIVATE_FIELD)
    redis_conn.zadd(keys.GLOBAL_TIMELINE, {unlisted: 1})
    redis_conn.zadd(keys.tag_timeline_key("quiet"), {unlisted: 1})
    found = [(f.check, f.problem) for f in maintenance.repair().findings]
    assert ("visibility", "private but not marked private") in found
    assert ("visibility", "unlisted on the global timeline") in found
    assert ("visibility", "unlisted on #quiet") in found
    maintenance.repair(fix=True)
    assert get_status(private)["private"] == "1"
    assert maintenance.repair().findings == []


def test_only_public_statuses_trend(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    shown = posting.post_status(ann.uid, "public")
    for visibility in ("unlisted", "private", "direct"):
        posting.post_status(ann.uid, f"{visibility} @ben", visibility=visibility)
    ids = [shown, *(status_id for status_id in range(shown + 1, shown + 4))]
    graph.follow_user(ben.uid, ann.uid)
    for status_id in ids:
        reactions.like(ben.uid, status_id)
    for event in events():
        activity.record_event(json.dumps(event))
    trending = explore.trending_statuses(ben.uid, 0, 40).statuses
    assert [status["id"] for status in trending] == [shown]
