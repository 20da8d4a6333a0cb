"""Markers, preferences and filters v2 as the Mastodon.py library uses them, against a
real daphne."""

from socialsite import jobs
from timeline.posting.preferences import set_default_visibility


def test_markers_with_mastodon_py(mastodon_as):
    alice = mastodon_as("alice")
    status = alice.status_post("read up to here")
    saved = alice.markers_set(["home"], [status.id])
    assert saved.home.last_read_id == str(status.id) and saved.home.version == 1
    found = alice.markers_get(["home", "notifications"])
    assert found.home.last_read_id == str(status.id)
    assert "notifications" not in found


def test_preferences_with_mastodon_py(mastodon_as):
    alice = mastodon_as("alice")
    set_default_visibility(int(alice.account_verify_credentials().id), "unlisted")
    found = alice.preferences()
    assert found["posting:default:visibility"] == "unlisted"
    assert found["reading:expand:spoilers"] is False


def test_filters_v2_with_mastodon_py(mastodon_as):
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    alice.account_follow(bob.account_verify_credentials().id)
    made = alice.create_filter_v2(
        "Spoilers",
        ["home", "thread"],
        "warn",
        keywords_attributes=[{"keyword": "finale", "whole_word": True}],
    )
    assert [f.id for f in alice.filters_v2()] == [made.id]
    keyword = alice.add_filter_keyword_v2(made.id, "twist", whole_word=False)
    assert [k.keyword for k in alice.filter_keywords_v2(made.id)] == ["finale", "twist"]
    status = bob.status_post("what a Twist at the finale")
    jobs.work(burst=True)
    (home,) = alice.timeline_home()
    (result,) = home.filtered
    assert result.filter.id == made.id
    assert sorted(result.keyword_matches) == ["finale", "twist"]
    alice.add_filter_status_v2(made.id, status.id)
    assert [s.status_id for s in alice.filter_statuses_v2(made.id)] == [str(status.id)]
    changed = alice.update_filter_v2(made.id, filter_action="hide", context=["home"])
    assert changed.filter_action == "hide" and changed.context == ["home"]
    # A hiding filter for home leaves the status out of it.
    assert alice.timeline_home() == []
    alice.delete_filter_keyword_v2(keyword.id)
    alice.delete_filter_v2(made.id)
    assert alice.filters_v2() == []
    assert [s.id for s in alice.timeline_home()] == [status.id]
