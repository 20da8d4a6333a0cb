import json

import pytest
from django.core.management import CommandError, call_command

from accounts.keys import user_key
from accounts.services import get_user
from timeline import keys
from timeline.graph import services as graph
from timeline.ops import maintenance
from timeline.posting import services as posting


@pytest.fixture
def small_network(make_user):
    """ann and bob follow each other and have posted; cy follows ann."""
    ann, bob, cy = make_user("ann").uid, make_user("bob").uid, make_user("cy").uid
    for follower, followed in [(ann, bob), (bob, ann), (cy, ann)]:
        graph.follow_user(follower, followed)
    posts = [posting.post_status(uid, f"by {uid}") for uid in (ann, bob, ann)]
    return {"ann": ann, "bob": bob, "cy": cy, "posts": posts}


def by_check(report) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for finding in report.findings:
        found.setdefault(finding.check, []).append(finding.key)
    return found


def test_repair_finds_nothing_wrong_in_a_healthy_network(small_network):
    report = maintenance.repair()
    assert report.findings == []
    assert report.checked["users"] == 3
    assert report.checked["follow edge ends"] == 6


def test_repair_reports_and_fixes_counters_that_drifted(small_network, redis_conn):
    ann = small_network["ann"]
    redis_conn.hset(user_key(ann), mapping={"followers": 40, "posts": -1})
    report = maintenance.repair()
    assert by_check(report) == {"counters": [user_key(ann)]}
    assert "followers 40 (the set has 2)" in report.findings[0].problem
    assert get_user(ann)["followers"] == 40  # reporting changes nothing
    maintenance.repair(fix=True)
    assert (get_user(ann)["followers"], get_user(ann)["posts"]) == (2, 2)
    assert maintenance.repair().findings == []


def test_repair_removes_timeline_entries_whose_status_is_gone(small_network, redis_conn):
    ann, bob, cy = small_network["ann"], small_network["bob"], small_network["cy"]
    gone = small_network["posts"][0]
    redis_conn.delete(keys.status_key(gone))  # a deletion whose clean-up never ran
    report = maintenance.repair()
    listed = {keys.profile_timeline_key(ann), keys.GLOBAL_TIMELINE}
    listed |= {keys.home_timeline_key(uid) for uid in (ann, bob, cy)}
    assert set(by_check(report)["timelines"]) == listed
    maintenance.repair(fix=True)
    for key in listed:
        assert redis_conn.zscore(key, gone) is None
    assert get_user(ann)["posts"] == 1
    assert maintenance.repair().findings == []


def test_repair_completes_or_drops_follows_recorded_on_one_side(small_network, redis_conn):
    ann, bob, cy = small_network["ann"], small_network["bob"], small_network["cy"]
    # cy's follow of bob stopped after its first step: bob lists a follower who doesn't follow.
    redis_conn.zadd(keys.followers_key(bob), {cy: 1.0})
    # ann's unfollow of bob stopped after its first step: ann still follows bob.
    redis_conn.zrem(keys.followers_key(bob), ann)
    # bob follows someone who no longer exists.
    redis_conn.zadd(keys.following_key(bob), {999: 1.0})
    report = maintenance.repair()
    assert sorted(by_check(report)["follows"]) == sorted(
        [keys.followers_key(bob), keys.following_key(ann), keys.following_key(bob)]
    )
    maintenance.repair(fix=True)
    assert redis_conn.zscore(keys.followers_key(bob), cy) is None
    assert redis_conn.zscore(keys.followers_key(bob), ann) is not None
    assert redis_conn.zscore(keys.following_key(bob), 999) is None
    assert (get_user(bob)["followers"], get_user(bob)["following"]) == (1, 1)
    assert maintenance.repair().findings == []


def test_repair_command_reports_by_default_and_fixes_with_fix(small_network, redis_conn, capsys):
    redis_conn.hset(user_key(small_network["bob"]), "following", 9)
    call_command("repair")
    out = capsys.readouterr().out
    assert f"counters: {user_key(small_network['bob'])} following 9 (the set has 1)" in out
    assert "1 problem found; --fix repairs it." in out
    call_command("repair", fix=True)
    assert "Fixed 1 problem." in capsys.readouterr().out
    call_command("repair")
    assert "No problems found." in capsys.readouterr().out


def test_repair_command_refuses_unknown_arguments():
    with pytest.raises(CommandError):
        call_command("repair", "--fixx")


def test_stats_prints_the_dashboards_numbers_as_text_and_json(small_network, capsys):
    call_command("stats")
    text = capsys.readouterr().out
    assert "users            3 (0 suspended)" in text
    assert "statuses         3" in text
    assert "follows          3" in text
    assert "stream clients" in text and "posts per hour" in text
    call_command("stats", json=True)
    stats = json.loads(capsys.readouterr().out)
    assert (stats["users"], stats["statuses"], stats["follows"]) == (3, 3, 3)
    assert stats["jobs"]["failed"] == 0 and stats["redis"]["keys"] > 0
    assert len(stats["posts_per_hour"]) == 24


def test_stats_refuses_unknown_arguments():
    with pytest.raises(CommandError):
        call_command("stats", "--yaml")
