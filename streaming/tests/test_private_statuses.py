"""The streaming API and the live home timeline obey timeline.audience's rule: a private
account's status never reaches a sample, track or follow stream, only the live home
timelines of approved followers; blocks and mutes keep statuses out of live homes."""

import asyncio
import json

from accounts.services import create_user
from streaming import services
from streaming.filters import create_filter
from streaming.home_filter import HomeFilter
from streaming.hub import Hub
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status
from timeline.safety import services as safety

from .listeners import home_stream, next_line


async def test_a_private_status_reaches_no_public_stream_only_followers_homes(alice_uid):
    follower, stranger = create_user("fan", "Fan"), create_user("stranger", "S")
    safety.set_private(alice_uid, True)
    follow_user(follower, alice_uid)
    safety.approve_request(alice_uid, follower)
    follow_user(stranger, alice_uid)  # only asks
    hub = Hub()
    sample = await hub.join(create_filter("k", "sample", None, 100))
    track = await hub.join(create_filter("k", "filter", "track", ["secret"]))
    follows = await hub.join(create_filter("k", "filter", "follow", ["alice"]))
    fan_home = await home_stream(hub, follower)
    stranger_home = await home_stream(hub, stranger)
    status_id = post_status(alice_uid, "secret plans")
    delete_status(alice_uid, status_id)
    public = post_status(create_user("pub", "P"), "secret public plans")
    assert json.loads(await next_line(fan_home))["id"] == status_id
    assert json.loads(await next_line(fan_home)) == {"id": status_id, "deleted": True}
    for listener in (sample, track):
        assert json.loads(await next_line(listener))["id"] == public
        assert listener.lines.empty()
    assert follows.lines.empty() and stranger_home.lines.empty()
    for listener in (sample, track, follows, fan_home, stranger_home):
        await hub.leave(listener)


async def test_blocks_and_mutes_keep_statuses_out_of_the_live_home(alice_uid):
    reader, blocked = create_user("reader", "R"), create_user("blocked", "B")
    follow_user(reader, alice_uid)
    follow_user(reader, blocked)
    safety.mute(reader, alice_uid)
    safety.set_muted_words(reader, "spoiler")
    hub = Hub()
    home = await home_stream(hub, reader)
    post_status(alice_uid, "muted")
    safety.block(blocked, reader)
    post_status(blocked, "blocked")
    shown = post_status(reader, "mine, a spoiler")
    assert json.loads(await next_line(home))["id"] == shown
    assert home.lines.empty()
    await hub.leave(home)


async def test_follows_of_a_private_account_reach_only_the_live_home_of_the_follower(alice_uid):
    fan = create_user("fan", "Fan")
    safety.set_private(alice_uid, True)
    hub = Hub()
    follows = await hub.join(create_filter("k", "filter", "follow", ["alice", "fan"]))
    match = HomeFilter(fan)
    home = await hub.join(match)
    match.begin_load()
    match.load(await services.home_state(fan, match.keep))
    follow_user(fan, alice_uid)
    safety.approve_request(alice_uid, fan)
    async with asyncio.timeout(5):
        await match.stale.wait()  # the live home learnt of the follow
    assert alice_uid in match.followed
    safety.remove_follower(alice_uid, fan)
    follow_user(fan, create_user("public", "P"))
    event = json.loads(await next_line(follows))
    assert (event["event"], event["target"]["login"]) == ("follow", "public")
    assert follows.lines.empty() and home.lines.empty()
    await hub.leave(follows)
    await hub.leave(home)
