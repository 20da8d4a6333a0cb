import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.keys import hash_tag_id
from accounts.services import get_user, uid_for_login
from socialsite.redis import key_count
from timeline import display, keys, text
from timeline.discovery import activity
from timeline.feeds import selectors as feeds
from timeline.ops import maintenance, seeding
from timeline.posting import services as posting


def network(redis_conn) -> dict:
    """The seeded network by login: whom each follows and what each posted."""
    users = {}
    for key in redis_conn.scan_iter(keys.PROFILE_TIMELINE_PATTERN):
        for status in feeds.timeline_page(hash_tag_id(key), "profile", count=10_000).statuses:
            users.setdefault(status["login"], {"posted": []})["posted"].append(status["message"])
    return users


def follow_logins(redis_conn) -> set[tuple[str, str]]:
    edges = set()
    for key in redis_conn.scan_iter(keys.FOLLOWING_PATTERN):
        follower = get_user(hash_tag_id(key))["login"]
        for uid in redis_conn.zrange(key, 0, -1):
            edges.add((follower, get_user(int(uid))["login"]))
    return edges


def test_a_seeded_network_is_consistent_as_if_users_had_followed_and_posted(redis_conn):
    result = seeding.seed_network(users=60, follows_per_user=8, posts_per_user=6, seed=3)
    assert maintenance.repair().findings == []
    stats = maintenance.network_totals()
    assert stats["users"] == 60
    assert stats["statuses"] == result.statuses > 0
    assert stats["follows"] == result.follows > 0
    # A home timeline is the user's own statuses and those of everyone they follow.
    uid = uid_for_login(result.logins[0])
    followed = [int(u) for u in redis_conn.zrange(keys.following_key(uid), 0, -1)]
    expected = set()
    for author in [uid, *followed]:
        expected |= {int(s) for s in redis_conn.zrange(keys.profile_timeline_key(author), 0, -1)}
    assert {int(s) for s in redis_conn.lrange(keys.home_timeline_key(uid), 0, -1)} == expected
    newest = feeds.global_timeline_page(count=5).statuses
    assert [s["posted"] for s in newest] == sorted((s["posted"] for s in newest), reverse=True)


def test_a_seeded_network_looks_real(redis_conn):
    result = seeding.seed_network(users=200, follows_per_user=10, posts_per_user=10, seed=1)
    followers = sorted(get_user(uid_for_login(login))["followers"] for login in result.logins)
    # Power law: the most followed account has many times the median's followers.
    assert followers[-1] > 8 * max(1, followers[len(followers) // 2])
    messages = [s["message"] for s in feeds.global_timeline_page(count=1000).statuses]
    assert any(text.tags(m) for m in messages)
    assert any(text.mentions(m) for m in messages)
    located = feeds.global_timeline_page(count=1000).statuses
    assert any("location" in s for s in located)
    # The dashboard shows the last day's posts as if it had been listening.
    assert sum(count for _, count in activity.posts_per_hour()) > 0


def test_seeded_mentions_and_tags_are_indexed_as_a_post_indexes_them(redis_conn):
    seeding.seed_network(users=60, follows_per_user=8, posts_per_user=6, seed=3)
    statuses = feeds.global_timeline_page(count=1000).statuses
    mentioning = [s for s in statuses if text.mentions(s["message"])]
    tagged = [s for s in statuses if text.tags(s["message"])]
    assert mentioning and tagged
    for status in mentioning:
        login = text.mentions(status["message"])[0]
        assert status["mentions"] == login
        mentioned = uid_for_login(login)
        assert status["mention_ids"] == str(mentioned)
        assert redis_conn.zscore(keys.mentions_timeline_key(mentioned), status["id"])
        assert f'href="/u/{login}/"' in display.status_text(status)
    for status in tagged:
        for tag in text.tags(status["message"]):
            assert redis_conn.zscore(keys.tag_timeline_key(tag), status["id"])


def test_the_same_seed_gives_the_same_network(redis_conn):
    seeding.seed_network(users=30, follows_per_user=5, posts_per_user=4, seed=42)
    first, first_edges = network(redis_conn), follow_logins(redis_conn)
    redis_conn.flushdb()
    seeding.seed_network(users=30, follows_per_user=5, posts_per_user=4, seed=42)
    assert network(redis_conn) == first
    assert follow_logins(redis_conn) == first_edges
    redis_conn.flushdb()
    seeding.seed_network(users=30, follows_per_user=5, posts_per_user=4, seed=43)
    assert network(redis_conn) != first


def test_seeding_twice_adds_users_with_fresh_logins(redis_conn):
    first = seeding.seed_network(users=20, follows_per_user=3, posts_per_user=1, seed=5)
    second = seeding.seed_network(users=20, follows_per_user=3, posts_per_user=1, seed=5)
    assert len({login.lower() for login in first.logins + second.logins}) == 40
    assert maintenance.network_totals()["users"] == 40
    assert maintenance.repair().findings == []


@override_settings(HOME_TIMELINE_SIZE=5)
def test_seeded_home_timelines_keep_only_the_newest(redis_conn):
    result = seeding.seed_network(users=10, follows_per_user=5, posts_per_user=5, seed=9)
    for login in result.logins:
        assert redis_conn.llen(keys.home_timeline_key(uid_for_login(login))) <= 5


@pytest.mark.django_db
def test_seed_network_command_makes_demo_users_who_can_log_in(capsys):
    call_command(
        "seed_network", users=12, follows_per_user=3, posts_per_user=2, seed=1, password="pw-demo"
    )
    out = capsys.readouterr().out
    assert "users: 12 created" in out and "seed_network: 12 users" in out
    login = out.split("Log in as any of them (")[1].split(",")[0]
    assert authenticate(username=login, password="pw-demo") is not None


def test_seed_network_if_empty_leaves_a_used_network_alone(make_user, capsys):
    posting.post_status(make_user().uid, "first!")
    call_command("seed_network", users=5, follows_per_user=2, if_empty=True)
    assert "nothing seeded" in capsys.readouterr().out
    assert maintenance.network_totals()["users"] == 1


@pytest.mark.parametrize(
    "options, message",
    [
        ({"users": 1}, "at least 2 users"),
        ({"users": 5, "follows_per_user": 5}, "at most 4 others"),
        ({"posts_per_user": -1}, "can't be negative"),
    ],
)
def test_seed_network_refuses_impossible_sizes_and_writes_nothing(redis_conn, options, message):
    with pytest.raises(CommandError, match=message):
        call_command("seed_network", **options)
    assert key_count(redis_conn) == 0


def test_seed_network_exits_non_zero_on_bad_arguments_from_the_command_line():
    for args in (["--users", "many"], ["--users", "1"]):
        done = subprocess.run(
            [sys.executable, "manage.py", "seed_network", *args],
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
        )
        assert done.returncode != 0
        assert "users" in done.stderr


def test_every_command_has_help():
    for command in ("seed_network", "repair", "stats", "worker"):
        done = subprocess.run(
            [sys.executable, "manage.py", command, "--help"],
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0 and "usage:" in done.stdout
