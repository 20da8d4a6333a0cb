"""The live home filter and followed tags (timeline.keeps): fed the real events of a
random run of posts (tagged or not, replies, reposts, a private account's), it passes a
status exactly when fan-out, the tags' followers' included, put it into the home."""

import json
import random

import pytest
from django.core.management import call_command

from accounts.services import create_user
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import for_each_primary
from streaming.home_filter import HomeFilter
from timeline.graph.services import follow_user
from timeline.keeps import services as keeps
from timeline.posting.services import post_status
from timeline.reactions import services as reactions
from timeline.safety.services import set_private
from timeline.statuses.selectors import get_status
from timeline.tests.pages import home_entries

from .test_home_filter import read_home

MESSAGES = ("hello", "all about #redis", "#Redis and #cluster", "#cluster only")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_home_filter_passes_what_followed_tags_put_in_home(redis_conn, seed, request):
    rng = random.Random(seed)
    viewer = create_user("viewer", "Viewer")
    followed, stranger, private = (create_user(f"user{i}", "Other") for i in range(3))
    follow_user(viewer, followed)
    set_private(private, True)
    keeps.follow_tag(viewer, "redis")
    pubsub = redis_conn.pubsub(ignore_subscribe_messages=True)
    request.addfinalizer(pubsub.close)
    pubsub.subscribe(STATUS_CHANNEL)
    check = HomeFilter(viewer)
    read_home(check)
    assert check.followed_tags == {"redis"}
    statuses: list[int] = []
    decided = {"passed": 0, "left out": 0}

    def feed() -> list[dict]:
        passed = []
        servers = for_each_primary(redis_conn)
        for server in servers:
            server.publish(STATUS_CHANNEL, json.dumps({"event": "marker"}))
        markers = len(servers)
        while markers:
            message = pubsub.get_message(timeout=0.1)
            if not message:
                continue
            event = json.loads(message["data"])
            if event == {"event": "marker"}:
                markers -= 1
            elif check(event):
                passed.append(event)
            if check.stale.is_set():
                read_home(check)
        return passed

    for _ in range(120):
        roll = rng.random()
        author = rng.choice([followed, stranger, private])
        try:
            if roll < 0.6 or not statuses:
                status_id = post_status(author, rng.choice(MESSAGES))
            elif roll < 0.8:
                parent = rng.choice(statuses)
                status_id = post_status(author, rng.choice(MESSAGES), in_reply_to=parent)
            else:
                status_id = reactions.repost(author, rng.choice(statuses[-30:]))
        except ValueError:  # a private status reposted, reposting twice
            feed()
            continue
        call_command("worker", burst=True)  # the tags' fan-out
        statuses.append(status_id)
        passed = [event["id"] for event in feed() if not event.get("deleted")]
        in_home = status_id in home_entries(viewer)
        assert passed == ([status_id] if in_home else []), get_status(status_id)
        decided["passed" if in_home else "left out"] += 1
    assert all(count > 10 for count in decided.values()), decided
