import json

import pytest
from django.core.management import CommandError, call_command

from accounts.keys import user_key
from accounts.services import get_user
from timeline import keys
from timeline.graph import services as graph
from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.ops import maintenance
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses.selectors import get_status
from timeline.statuses.services import add_to_status_set, remove_from_status_set


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
    for key in listed - {keys.home_timeline_key(uid) for uid in (ann, bob, cy)}:
        assert redis_conn.zscore(key, gone) is None
    for uid in (ann, bob, cy):
        assert redis_conn.lpos(keys.home_timeline_key(uid), gone) is None
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
    # Each finding names the key its fix changes.
    assert sorted((f.key, f.problem) for f in report.findings if f.check == "follows") == [
        (keys.followers_key(bob), f"lists follower {cy}, who doesn't follow them"),
        (keys.followers_key(bob), f"misses follower {ann}, who follows them"),
        (keys.following_key(bob), "follows 999, who doesn't exist"),
    ]
    maintenance.repair(fix=True)
    assert redis_conn.zscore(keys.followers_key(bob), cy) is None
    assert redis_conn.zscore(keys.followers_key(bob), ann) is not None
    assert redis_conn.zscore(keys.following_key(bob), 999) is None
    assert (get_user(bob)["followers"], get_user(bob)["following"]) == (1, 1)
    assert maintenance.repair().findings == []


@pytest.fixture
def conversation(small_network):
    """cy lists ann and bob; bob's #redis status mentions cy, and ann replies to it,
    reposts it and likes it."""
    ann, bob, cy = small_network["ann"], small_network["bob"], small_network["cy"]
    list_id = lists.create_list(cy, "friends")
    lists.add_member(cy, list_id, ann)
    lists.add_member(cy, list_id, bob)
    talk = posting.post_status(bob, "#redis is fast, @cy")
    reply = posting.post_status(ann, "it is", in_reply_to=talk)
    reactions.repost(ann, talk)
    reactions.like(ann, talk)
    return {**small_network, "list": list_id, "talk": talk, "reply": reply}


def test_repair_finds_nothing_wrong_in_a_healthy_conversation(conversation):
    report = maintenance.repair()
    assert report.findings == []
    assert report.checked["statuses"] == 6 and report.checked["lists"] == 1
    assert report.checked["list membership ends"] == 4
    assert report.checked["like ends"] == 2


def test_repair_removes_deleted_ids_from_list_mention_and_tag_timelines_and_likes(
    conversation, redis_conn
):
    talk, ann, cy = conversation["talk"], conversation["ann"], conversation["cy"]
    redis_conn.delete(keys.status_key(talk))  # a deletion whose clean-up never ran
    report = maintenance.repair()
    found = set(by_check(report)["timelines"])
    listed = {
        keys.list_timeline_key(conversation["list"]),
        keys.mentions_timeline_key(cy),
        keys.tag_timeline_key("redis"),
        keys.likes_key(ann),
    }
    assert listed <= found
    assert all(redis_conn.zscore(key, talk) is not None for key in listed)  # reported only
    maintenance.repair(fix=True)
    for key in listed:
        assert redis_conn.zscore(key, talk) is None
    assert maintenance.repair().findings == []


def test_repair_reports_and_fixes_reply_repost_and_like_counts(conversation, redis_conn):
    talk, reply = conversation["talk"], conversation["reply"]
    redis_conn.hset(keys.status_key(talk), mapping={"replies": 5, "reposts": 0, "likes": 2})
    redis_conn.hset(keys.status_key(reply), "likes", 1)  # nobody liked it
    report = maintenance.repair()
    assert sorted(by_check(report)["counters"]) == sorted(
        [keys.status_key(talk), keys.status_key(reply)]
    )
    problems = {finding.key: finding.problem for finding in report.findings}
    assert problems[keys.status_key(talk)] == (
        "replies 5 (the set has 1), reposts 0 (the set has 1), likes 2 (the set has 1)"
    )
    assert get_status(talk)["replies"] == 5  # reporting changes nothing
    maintenance.repair(fix=True)
    talk_now, reply_now = get_status(talk), get_status(reply)
    assert (talk_now["replies"], talk_now["reposts"], talk_now["likes"]) == (1, 1, 1)
    assert reply_now["likes"] == 0
    assert maintenance.repair().findings == []


def test_repair_reports_and_fixes_a_list_members_count(conversation, redis_conn):
    list_id = conversation["list"]
    redis_conn.hset(keys.list_key(list_id), "members", 7)
    report = maintenance.repair()
    assert by_check(report) == {"counters": [keys.list_key(list_id)]}
    assert report.findings[0].problem == "members 7 (the set has 2)"
    maintenance.repair(fix=True)
    assert list_selectors.get_list(list_id)["members"] == 2
    assert maintenance.repair().findings == []


def test_repair_completes_or_drops_list_memberships_recorded_on_one_side(conversation, redis_conn):
    ann, bob, cy, list_id = (conversation[name] for name in ("ann", "bob", "cy", "list"))
    # Removing ann stopped after its first step: the list still has her as a member.
    redis_conn.zrem(keys.listed_in_key(ann), list_id)
    # Adding cy stopped after its first step: her "listed in" names a list she isn't on,
    # and so does bob's, for a list that is gone.
    redis_conn.zadd(keys.listed_in_key(cy), {list_id: 1.0})
    redis_conn.zadd(keys.listed_in_key(bob), {999: 1.0})
    report = maintenance.repair()
    assert sorted(by_check(report)["lists"]) == sorted(
        [keys.listed_in_key(ann), keys.listed_in_key(cy), keys.listed_in_key(bob)]
    )
    maintenance.repair(fix=True)
    assert redis_conn.zscore(keys.listed_in_key(ann), list_id) is not None
    assert redis_conn.zscore(keys.listed_in_key(cy), list_id) is None
    assert redis_conn.zrange(keys.listed_in_key(bob), 0, -1) == [str(list_id)]
    assert maintenance.repair().findings == []
    # Fan-out follows the repaired sets: ann's posts reach the list again, cy's don't.
    mine = posting.post_status(ann, "back on the list")
    posting.post_status(cy, "never on it")
    assert redis_conn.zrevrange(keys.list_timeline_key(list_id), 0, 0) == [str(mine)]


def test_repair_completes_or_drops_likes_recorded_on_one_side(conversation, redis_conn):
    ann, bob, cy = (conversation[name] for name in ("ann", "bob", "cy"))
    talk, reply = conversation["talk"], conversation["reply"]
    # ann's unlike of talk stopped after its first step: her likes page still shows it.
    remove_from_status_set(redis_conn, keys.likers_key, talk, "likes", ann)
    # bob's like of the reply stopped after its first step: his likes page misses it.
    add_to_status_set(redis_conn, keys.likers_key, reply, "likes", 5.0, bob)
    # cy liked a status whose hash is gone and whose likers were never walked.
    gone = posting.post_status(bob, "soon gone")
    reactions.like(cy, gone)
    redis_conn.delete(keys.status_key(gone))
    report = maintenance.repair()
    assert sorted(by_check(report)["likes"]) == sorted([keys.likes_key(ann), keys.likes_key(bob)])
    # cy's page shows a deleted status; once that is fixed, the likers it leaves are dropped.
    assert keys.likes_key(cy) in by_check(report)["timelines"]
    maintenance.repair(fix=True)
    assert redis_conn.zrange(keys.likes_key(ann), 0, -1) == []
    assert redis_conn.zrange(keys.likes_key(bob), 0, -1, withscores=True) == [(str(reply), 5.0)]
    assert redis_conn.zrange(keys.likes_key(cy), 0, -1) == []
    assert not redis_conn.exists(keys.likers_key(gone))
    assert maintenance.repair().findings == []


def test_repair_drops_deleted_replies_and_corrects_the_count(conversation, redis_conn):
    talk, reply = conversation["talk"], conversation["reply"]
    redis_conn.delete(keys.status_key(reply))  # a deletion stopped before its clean-up
    report = maintenance.repair()
    assert keys.replies_key(talk) in by_check(report)["timelines"]
    maintenance.repair(fix=True)
    assert redis_conn.zcard(keys.replies_key(talk)) == 0
    assert get_status(talk)["replies"] == 0
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
