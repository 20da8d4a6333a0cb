import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.services import get_user, uid_for_login
from socialsite.redis import key_count
from timeline.conversations.selectors import mentions_page, tag_page
from timeline.discovery import activity
from timeline.feeds import selectors as feeds
from timeline.graph.selectors import following_page
from timeline.ops import maintenance, seeding
from timeline.posting import services as posting
from timeline.statuses import display, text
from timeline.tests.pages import home_entries, ids


def network(result) -> dict:
    """The seeded network by login: what each posted (each one who posted)."""
    users = {}
    for login in result.logins:
        for status in feeds.timeline_page(uid_for_login(login), "profile", count=10_000).statuses:
            users.setdefault(status["login"], {"posted": []})["posted"].append(status["message"])
    return users


def followed(uid: int) -> list[int]:
    return [u["id"] for u in following_page(uid, 1, 10_000, viewer=uid)[0]]


def follow_logins(result) -> set[tuple[str, str]]:
    edges = set()
    for follower in result.logins:
        for uid in followed(uid_for_login(follower)):
            edges.add((follower, get_user(uid)["login"]))
    return edges


def test_a_seeded_network_is_consistent_as_if_users_had_followed_and_posted():
    result = seeding.seed_network(users=60, follows_per_user=8, posts_per_user=6, seed=3)
    assert maintenance.repair().findings == []
    stats = maintenance.network_totals()
    assert stats["users"] == 60
    assert stats["statuses"] == result.statuses > 0
    assert stats["follows"] == result.follows > 0
    # A home timeline is the user's own statuses and those of everyone they follow.
    uid = uid_for_login(result.logins[0])
    expected = set()
    for author in [uid, *followed(uid)]:
        expected |= set(ids(feeds.get_status_messages(author, "profile", count=10_000)))
    assert set(home_entries(uid)) == expected
    newest = feeds.global_timeline_page(count=5).statuses
    assert [s["posted"] for s in newest] == sorted((s["posted"] for s in newest), reverse=True)


def test_a_seeded_network_looks_real():
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


def test_seeded_mentions_and_tags_are_indexed_as_a_post_indexes_them():
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
        assert status["id"] in ids(mentions_page(mentioned, count=10_000).statuses)
        assert f'href="/u/{login}/"' in display.status_text(status)
    for status in tagged:
        for tag in text.tags(status["message"]):
            assert status["id"] in ids(tag_page(tag, count=10_000).statuses)


def test_the_same_seed_gives_the_same_network(redis_conn):
    seeded = seeding.seed_network(users=30, follows_per_user=5, posts_per_user=4, seed=42)
    first, first_edges = network(seeded), follow_logins(seeded)
    redis_conn.flushdb()
    seeded = seeding.seed_network(users=30, follows_per_user=5, posts_per_user=4, seed=42)
    assert network(seeded) == first
    assert follow_logins(seeded) == first_edges
    redis_conn.flushdb()
    seeded = seeding.seed_network(users=30, follows_per_user=5, posts_per_user=4, seed=43)
    assert network(seeded) != first


def test_seeding_twice_adds_users_with_fresh_logins():
    first = seeding.seed_network(users=20, follows_per_user=3, posts_per_user=1, seed=5)
    second = seeding.seed_network(users=20, follows_per_user=3, posts_per_user=1, seed=5)
    assert len({login.lower() for login in first.logins + second.logins}) == 40
    assert maintenance.network_totals()["users"] == 40
    assert maintenance.repair().findings == []


@override_settings(HOME_TIMELINE_SIZE=5)
def test_seeded_home_timelines_keep_only_the_newest():
    result = seeding.seed_network(users=10, follows_per_user=5, posts_per_user=5, seed=9)
    for login in result.logins:
        assert len(home_entries(uid_for_login(login))) <= 5


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
    # All at once: each is mostly Django starting up, which need not wait for the others.
    helps = [
        subprocess.Popen(
            [sys.executable, "manage.py", command, "--help"],
            cwd=settings.BASE_DIR,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in ("seed_network", "repair", "stats", "worker")
    ]
    for process in helps:
        stdout, _ = process.communicate(timeout=120)
        assert process.returncode == 0 and "usage:" in stdout
