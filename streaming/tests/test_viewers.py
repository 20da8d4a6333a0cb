"""Every stream is for someone, and carries to them only what timeline.audience's rule
lets them see: no status of a user blocking them or blocked by them (whenever the block
was made), and a private account's follows, either way, only to it, the other side and
its approved followers. Streams opened as a client would (streaming.streams), on
stream keys, in this process's hub."""

import asyncio
import json

from accounts.services import create_user
from streaming.services import create_stream_key
from streaming.streams import Stream, open_stream
from streaming.viewers import Viewer
from timeline.audience.selectors import Audience
from timeline.graph.services import follow_user, unfollow_user
from timeline.posting.services import post_status
from timeline.reactions import services as reactions
from timeline.safety import services as safety

IN_THE_BOX = "48.85,2.35"
BOX = "2,48,3,49"


async def next_event(stream: Stream, timeout: float = 5.0) -> dict:
    async with asyncio.timeout(timeout):
        line = await stream.listener.lines.get()
    assert line is not None, stream.listener.ending
    return json.loads(line)


async def open_as(uid: int, name: str, **params: str) -> Stream:
    return await open_stream(name, {"identifier": create_stream_key(uid), **params})


def follow_line(event: dict) -> tuple:
    return (event["event"], event["source"]["login"], event["target"]["login"])


async def test_no_stream_carries_a_status_of_a_user_blocking_or_blocked_by_its_owner():
    bea, alice, dan, eve = (create_user(login, login) for login in ("bea", "alice", "dan", "eve"))
    carl = create_user("carl", "Carl")
    safety.block(alice, bea)  # blocks the reader
    safety.block(bea, dan)  # blocked by the reader
    streams = [
        await open_as(bea, "sample", percent="100"),
        await open_as(bea, "filter", track="plans"),
        await open_as(bea, "filter", follow="alice,dan,eve,carl"),
        await open_as(bea, "filter", location=BOX),
    ]
    safety.block(eve, bea)  # while the streams are open: from its event on
    for author in (alice, dan, eve):
        post_status(author, f"plans of {author} @carl", location=IN_THE_BOX)
    marker = post_status(carl, "plans of carl", location=IN_THE_BOX)
    for stream in streams:
        assert (await next_event(stream))["id"] == marker
        await stream.close()


async def test_no_stream_carries_a_repost_of_a_blocked_users_status():
    bea, alice, carl = (create_user(login, login) for login in ("bea", "alice", "carl"))
    follow_user(bea, carl)
    original = post_status(alice, "a status carl reposts")
    streams = [
        await open_as(bea, "sample", percent="100"),
        await open_as(bea, "filter", follow="carl"),
        await open_as(bea, "home"),
    ]
    # Bea follows neither: only the block's event tells her streams of it.
    safety.block(alice, bea)
    reactions.repost(carl, original)
    marker = post_status(carl, "marker")
    for stream in streams:
        assert (await next_event(stream))["id"] == marker
        await stream.close()


async def test_a_private_accounts_follows_reach_only_it_the_other_side_and_approved_followers():
    pia, fay, rex, bea, sam, carl, ned, dan = (
        create_user(login, login)
        for login in ("pia", "fay", "rex", "bea", "sam", "carl", "ned", "dan")
    )
    safety.set_private(pia, True)
    follow_user(fay, pia)
    safety.approve_request(pia, fay)
    follow_user(rex, pia)  # only asks
    safety.block(pia, bea)
    watching = "pia,carl,ned,dan"
    streams = {
        uid: await open_as(uid, "filter", follow=watching)
        for uid in (pia, fay, rex, bea, sam, carl)
    }
    follow_user(pia, carl)  # a private account follows a public one
    unfollow_user(pia, carl)
    follow_user(ned, pia)
    safety.approve_request(pia, ned)  # a public account follows a private one
    marker = post_status(carl, "marker")
    pia_follows_carl = [("follow", "pia", "carl"), ("unfollow", "pia", "carl")]
    ned_follows_pia = [("follow", "ned", "pia")]
    expected = {
        pia: pia_follows_carl + ned_follows_pia,
        fay: pia_follows_carl + ned_follows_pia,
        carl: pia_follows_carl,
        rex: [],
        bea: [],
        sam: [],
    }
    for uid, stream in streams.items():
        got = []
        while "event" in (event := await next_event(stream)):
            got.append(follow_line(event))
        assert event["id"] == marker
        assert got == expected[uid], uid
    # Rex, approved while his stream is open, sees her follows from then on.
    safety.approve_request(pia, rex)
    follow_user(pia, dan)
    assert follow_line(await next_event(streams[rex])) == ("follow", "rex", "pia")
    assert follow_line(await next_event(streams[rex])) == ("follow", "pia", "dan")
    for stream in streams.values():
        await stream.close()


def test_a_viewer_learns_its_owners_follows_and_blocks_and_reads_old_follow_events():
    viewer = Viewer(Audience(1))
    pia, carl = {"id": 2, "login": "pia"}, {"id": 3, "login": "carl"}
    old_style = {"event": "follow", "source": carl, "target": pia, "private": "1"}
    assert not viewer.sees(old_style)  # marked before the sides were: the followed's
    viewer.learn({"event": "follow", "source": {"id": 1}, "target": {"id": 2}})
    assert viewer.sees(old_style)
    status = {"id": 10, "uid": 3, "login": "carl", "message": "hi"}
    assert viewer.sees(status)
    viewer.learn({"event": "block", "source": {"id": 3}, "target": {"id": 1}})
    assert not viewer.sees(status) and not viewer.sees(old_style)
    # An unblock asks for the blocks to be read again, and hides until then.
    viewer.learn({"event": "unblock", "source": {"id": 3}, "target": {"id": 1}})
    assert viewer.stale and not viewer.sees(status)
    assert viewer.sees({**status, "deleted": True})


async def test_an_unblock_shows_the_unblocked_users_statuses_again_once_read():
    bea, alice = create_user("bea", "Bea"), create_user("alice", "Alice")
    stream = await open_as(bea, "sample", percent="100")
    viewer = stream.listener.viewer
    safety.block(alice, bea)
    hidden = post_status(alice, "while blocked")
    async with asyncio.timeout(5):
        while not viewer.audience.blocked:  # the block's event came
            await asyncio.sleep(0.01)
    safety.unblock(alice, bea)
    async with asyncio.timeout(5):
        while viewer.audience.blocked:  # read again after the unblock's event
            await asyncio.sleep(0.01)
    shown = post_status(alice, "after the unblock")
    assert (await next_event(stream))["id"] == shown != hidden
    await stream.close()
