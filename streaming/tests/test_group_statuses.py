"""The streams obey the one rule extended to groups: a private group's post reaches no
sample, track or follow stream and no live home but its members' (as fan-out delivers:
members who show the group in home); a public group's post is public. End to end too:
home.json (chunked and WebSocket) and /live/ carry nothing of it to a non-member."""

import json

import pytest

from accounts.services import create_user
from streaming.filters import create_filter
from streaming.hub import Hub
from timeline.follow_sets import members as member_sets
from timeline.graph.services import follow_user
from timeline.groups import services as groups
from timeline.posting.services import post_status

from .listeners import home_stream, next_line


def private_group(owner: int, *members: int) -> int:
    from socialsite.redis import get_redis

    group_id = groups.create_group(owner, "Secret", "Secret", kind="private")
    for uid in members:
        groups.join_group(group_id, uid)
        state = member_sets.decode_state(get_redis().hget(f"groups:{{{uid}}}", str(group_id)))
        groups.admit(get_redis(), group_id, uid, state, approve=True)
    return group_id


async def test_a_private_groups_post_reaches_only_its_members_live_homes(alice_uid):
    member, quiet = create_user("member", "M"), create_user("quiet", "Q")
    follower = create_user("follower", "F")
    secret = private_group(alice_uid, member, quiet)
    groups.set_show_in_home(secret, quiet, False)
    for uid in (follower, quiet):
        follow_user(uid, alice_uid)
    hub = Hub()
    sample = await hub.join(create_filter("k", "sample", None, 100))
    track = await hub.join(create_filter("k", "filter", "track", ["plans"]))
    follows = await hub.join(create_filter("k", "filter", "follow", ["alice"]))
    homes = {uid: await home_stream(hub, uid) for uid in (member, quiet, follower)}
    sid = post_status(alice_uid, "secret plans", group=secret)
    marker = post_status(alice_uid, "public plans")
    assert json.loads(await next_line(homes[member]))["id"] == sid
    for listener in (sample, track, follows, homes[quiet], homes[follower]):
        assert json.loads(await next_line(listener))["id"] == marker
    for listener in (sample, track, follows, *homes.values()):
        await hub.leave(listener)


async def test_a_public_groups_post_is_public_and_reaches_members_who_dont_follow(alice_uid):
    member, follower = create_user("member", "M"), create_user("follower", "F")
    group_id = groups.create_group(alice_uid, "Open", "Open")
    groups.join_group(group_id, member)
    follow_user(follower, alice_uid)
    hub = Hub()
    sample = await hub.join(create_filter("k", "sample", None, 100))
    homes = [await home_stream(hub, uid) for uid in (member, follower)]
    sid = post_status(alice_uid, "open plans", group=group_id)
    for listener in (sample, *homes):
        assert json.loads(await next_line(listener))["id"] == sid
        await hub.leave(listener)


@pytest.mark.django_db(transaction=True)
def test_home_json_and_live_carry_nothing_of_a_private_groups_post_to_a_non_member(
    http_stream, ws_stream, make_user
):
    bea = make_user("bea")
    alice, carl = create_user("alice", "Alice"), create_user("carl", "Carl")
    secret = private_group(alice, carl)
    follow_user(bea.uid, alice)
    headers = {"Cookie": bea.cookie}
    chunked = http_stream("GET", "/statuses/home.json", {}, headers=headers)
    socket = ws_stream("/statuses/home.json", {}, additional_headers=headers)
    live = ws_stream("/live/", additional_headers=headers)
    post_status(alice, "secret plans for @bea", group=secret)
    marker = post_status(alice, "public plans for @bea")
    try:
        assert chunked.next_event()["id"] == marker
        assert json.loads(socket.recv(timeout=10))["id"] == marker
        mention = json.loads(live.recv(timeout=10))
        assert (mention["type"], mention["notification"]["object"]) == ("notification", marker)
    finally:
        chunked.close()
