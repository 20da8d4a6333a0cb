"""The live home filter against the stored home timeline it stands for: fed the real
events of a random run of posts, replies, reposts, deletions, follows and unfollows,
it passes a status exactly when fan-out put it into the user's home."""

import asyncio
import json
import random

import pytest
from django.core.management import call_command

from accounts.services import create_user
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import for_each_primary, get_async_redis
from streaming import services
from streaming.home_filter import HomeFilter
from timeline.graph.services import follow_user, unfollow_user
from timeline.posting.services import delete_status, post_status
from timeline.reactions import services as reactions
from timeline.statuses.selectors import get_status
from timeline.tests.pages import home_entries


def read_home(check: HomeFilter) -> None:
    """What the home stream's keeper does when the filter asks to read home again."""

    async def read():
        try:
            return await services.home_state(check.uid, check.keep)
        finally:
            await get_async_redis().aclose()

    check.begin_load()
    check.load(asyncio.run(read()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_home_filter_passes_exactly_what_fan_out_puts_in_home(redis_conn, seed, request):
    rng = random.Random(seed)
    viewer = create_user("viewer", "Viewer")
    others = [create_user(f"user{i}", "Other") for i in range(5)]
    for other in others[:3]:
        follow_user(viewer, other)
    pubsub = redis_conn.pubsub(ignore_subscribe_messages=True)
    # Closed however the test ends: a cluster's pubsub stays subscribed until it is.
    request.addfinalizer(pubsub.close)
    pubsub.subscribe(STATUS_CHANNEL)
    check = HomeFilter(viewer)
    read_home(check)
    statuses: list[int] = []
    decided = {"passed": 0, "left out": 0, "reposts left out": 0}

    def next_event() -> dict:
        for _ in range(50):  # None is also what the ignored subscribe message gives
            if message := pubsub.get_message(timeout=0.1):
                return json.loads(message["data"])
        raise AssertionError("The marker never came.")

    def feed() -> list[dict]:
        """Runs the filter on what was published, reading home again when it asks."""
        passed = []
        # Everything published before these markers has arrived once they have: one from
        # each server, as a cluster relays each node's messages in order, not across nodes
        # (a follow is published from the follower's node, a status from the channel's).
        servers = for_each_primary(redis_conn)
        for server in servers:
            server.publish(STATUS_CHANNEL, json.dumps({"event": "marker"}))
        markers = len(servers)
        while markers:
            event = next_event()
            if event == {"event": "marker"}:
                markers -= 1
                continue
            if check(event):
                passed.append(event)
            if check.stale.is_set():
                read_home(check)
        return passed

    for _ in range(400):
        roll = rng.random()
        author = rng.choice([viewer, *others])
        try:
            if roll < 0.35 or not statuses:
                # Every visibility: a direct status reaches no follower's home.
                shown_to = rng.choice(["public", "public", "unlisted", "private", "direct"])
                status_id = post_status(author, "hello @user1", visibility=shown_to)
            elif roll < 0.55:
                status_id = post_status(author, "re", in_reply_to=rng.choice(statuses))
            elif roll < 0.85:
                status_id = reactions.repost(author, rng.choice(statuses[-60:]))
            elif roll < 0.95:
                victim = rng.choice(statuses)
                gone = get_status(victim)
                if gone:
                    delete_status(gone["uid"], victim)
                    call_command("worker", burst=True)  # fan-out's retraction
                feed()
                continue
            else:
                other = rng.choice(others)
                if not unfollow_user(viewer, other):
                    follow_user(viewer, other)
                call_command("worker", burst=True)  # an unfollow's refill
                feed()
                continue
        except ValueError:  # reposting twice, or a status deleted meanwhile
            feed()
            continue
        statuses.append(status_id)
        passed = [event["id"] for event in feed() if not event.get("deleted")]
        in_home = status_id in home_entries(viewer)
        assert passed == ([status_id] if in_home else []), get_status(status_id)
        decided["passed" if in_home else "left out"] += 1
        if not in_home and get_status(status_id).get("repost_of"):
            decided["reposts left out"] += 1
    # The run tried every rule both ways.
    assert all(count > 10 for count in decided.values()), decided
