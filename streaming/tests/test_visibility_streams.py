"""Visibility per post on the streams: an unlisted status reaches followers' live homes
and a profile's live timeline but no public stream (sample, track, follow, the global
and tag pages' live timelines); a direct one reaches no follower's live home."""

import json

from accounts.services import create_user
from streaming.filters import create_filter
from streaming.hub import Hub
from streaming.page_filter import GlobalFilter, ProfileFilter, TagFilter
from streaming.viewers import Viewer
from timeline.audience import selectors as safety
from timeline.graph.services import follow_user
from timeline.posting.services import post_status

from .listeners import home_stream, next_line


async def test_an_unlisted_status_reaches_homes_and_the_profile_but_no_public_stream(alice_uid):
    fan = create_user("fan", "Fan")
    follow_user(fan, alice_uid)
    hub = Hub()
    public_streams = [
        await hub.join(create_filter("k", "sample", None, 100)),
        await hub.join(create_filter("k", "filter", "track", ["quiet"])),
        await hub.join(create_filter("k", "filter", "follow", ["alice"])),
        await hub.join(GlobalFilter()),
        await hub.join(TagFilter("quiet")),
    ]
    # A page's live timeline is its logged-in reader's, shown anywhere but global.
    reader = Viewer(safety.Audience(fan), where=safety.ANYWHERE)
    profile = await hub.join(ProfileFilter("alice"), viewer=reader)
    home = await home_stream(hub, fan)
    unlisted = post_status(alice_uid, "#quiet news", visibility="unlisted")
    public = post_status(alice_uid, "#quiet public news")
    assert [json.loads(await next_line(home))["id"] for _ in range(2)] == [unlisted, public]
    assert [json.loads(await next_line(profile))["id"] for _ in range(2)] == [unlisted, public]
    for listener in public_streams:
        assert json.loads(await next_line(listener))["id"] == public
        assert listener.lines.empty()
    for listener in (*public_streams, profile, home):
        await hub.leave(listener)


async def test_a_direct_status_reaches_no_followers_live_home(alice_uid):
    fan, friend = create_user("fan", "Fan"), create_user("friend", "Friend")
    follow_user(fan, alice_uid)
    follow_user(friend, alice_uid)
    hub = Hub()
    fan_home = await home_stream(hub, fan)
    friend_home = await home_stream(hub, friend)
    own_home = await home_stream(hub, alice_uid)
    sample = await hub.join(create_filter("k", "sample", None, 100))
    direct = post_status(alice_uid, "psst @friend", visibility="direct")
    after = post_status(alice_uid, "hello all")
    assert json.loads(await next_line(own_home))["id"] == direct
    for listener in (fan_home, friend_home, sample):
        assert json.loads(await next_line(listener))["id"] == after
    for listener in (fan_home, friend_home, own_home, sample):
        await hub.leave(listener)
