import asyncio
import json

from django.test import override_settings

from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import for_each_primary
from socialsite.testing.waits import wait_for
from streaming.filters import create_filter
from streaming.hub import Hub
from streaming.services import create_stream_key, open_stream, revoke_stream_key
from streaming.streams import Stream
from timeline.posting.services import delete_status, post_status

from .clients import subscribers
from .listeners import next_line


def everything(event):
    return True


async def test_many_listeners_share_one_subscription_that_ends_with_the_last(redis_conn):
    tasks_before = len(asyncio.all_tasks())
    hub = Hub()
    listeners = [await hub.join(everything) for _ in range(5)]
    assert subscribers(redis_conn) == 1
    for listener in listeners:
        await hub.leave(listener)
    # The server drops the closed connection's subscription in its own time.
    wait_for(lambda: subscribers(redis_conn) == 0, timeout=5)
    assert len(asyncio.all_tasks()) == tasks_before


async def test_each_listener_gets_only_what_its_filter_passes(alice_uid):
    hub = Hub()
    redis_fans = await hub.join(create_filter("k", "filter", "track", ["redis"]))
    all_fans = await hub.join(everything)
    post_status(alice_uid, "I like python")
    post_status(alice_uid, "I like Redis!")
    assert json.loads(await next_line(all_fans))["message"] == "I like python"
    assert json.loads(await next_line(all_fans))["message"] == "I like Redis!"
    assert json.loads(await next_line(redis_fans))["message"] == "I like Redis!"
    assert redis_fans.lines.empty()
    await hub.leave(redis_fans)
    await hub.leave(all_fans)


async def test_a_deletion_reaches_the_listeners_that_got_the_status_as_its_id(alice_uid):
    hub = Hub()
    redis_fans = await hub.join(create_filter("k", "filter", "track", ["redis"]))
    others = await hub.join(create_filter("k", "filter", "track", ["python"]))
    status_id = post_status(alice_uid, "redis")
    await next_line(redis_fans)
    delete_status(alice_uid, status_id)
    assert json.loads(await next_line(redis_fans)) == {"id": status_id, "deleted": True}
    assert others.lines.empty()
    await hub.leave(redis_fans)
    await hub.leave(others)


@override_settings(STREAM_QUEUE_SIZE=3)
async def test_a_listener_that_falls_behind_is_dropped_and_the_others_get_everything(alice_uid):
    hub = Hub()
    slow = await hub.join(everything)
    fast = await hub.join(everything)
    for n in range(6):
        post_status(alice_uid, f"status {n}")
        assert json.loads(await next_line(fast))["message"] == f"status {n}"
    assert slow.ending.code == 4008
    assert "fell more than 3 events behind" in slow.ending.reason
    assert slow not in hub.listeners
    assert await next_line(slow) is None
    await hub.leave(slow)
    assert fast in hub.listeners
    await hub.leave(fast)


async def test_a_failing_filter_drops_only_its_own_listener(alice_uid):
    hub = Hub()
    broken = await hub.join(lambda event: 1 / 0)
    working = await hub.join(everything)
    post_status(alice_uid, "hello")
    assert json.loads(await next_line(working))["message"] == "hello"
    assert broken.ending.code == 1011
    await hub.leave(broken)
    await hub.leave(working)


async def test_the_hub_subscribes_again_when_its_connection_is_killed(alice_uid, redis_conn):
    hub = Hub()
    listener = await hub.join(everything)
    killed = [server.client_kill_filter(_type="pubsub") for server in for_each_primary(redis_conn)]
    # The hub's, and the status cache's of this process (timeline.statuses.cache) if it
    # was started: it subscribes again too.
    assert sum(killed) >= 1
    received = None
    for _ in range(50):
        post_status(alice_uid, "are you there?")
        try:
            received = await next_line(listener, timeout=0.2)
            break
        except TimeoutError:
            continue
    assert json.loads(received)["message"] == "are you there?"
    assert subscribers(redis_conn) == 1
    await hub.leave(listener)


async def test_events_that_are_not_json_objects_are_skipped(alice_uid, redis_conn):
    hub = Hub()
    listener = await hub.join(everything)
    redis_conn.publish(STATUS_CHANNEL, "not json")
    redis_conn.publish(STATUS_CHANNEL, "[1, 2]")
    post_status(alice_uid, "fine")
    assert json.loads(await next_line(listener))["message"] == "fine"
    await hub.leave(listener)


async def test_the_hub_ends_the_streams_of_a_revoked_key_and_keeps_the_others(alice_uid):
    doomed_key, kept_key = create_stream_key(alice_uid), create_stream_key(alice_uid)
    hub = Hub()
    with override_settings(STREAM_HEARTBEAT_SECONDS=0.05):
        doomed = await hub.join(everything, await open_stream(key=doomed_key, uid=None))
        kept = await hub.join(everything, await open_stream(key=kept_key, uid=None))
        revoke_stream_key(alice_uid, doomed.grant.key_id)
        assert await next_line(doomed) is None
    assert doomed.ending.code == 4401
    assert kept.ending is None
    assert kept in hub.listeners
    await hub.leave(doomed)
    await hub.leave(kept)


async def test_a_stream_cancelled_while_it_closes_has_left_the_hub(alice_uid):
    hub = Hub()
    grant = await open_stream(key=create_stream_key(alice_uid), uid=None)
    listener = await hub.join(everything, grant)
    keeper_stopping = asyncio.Event()

    async def slow_to_stop():
        try:
            await asyncio.Event().wait()
        finally:
            keeper_stopping.set()
            await asyncio.sleep(0.2)

    keeper = asyncio.create_task(slow_to_stop())
    await asyncio.sleep(0)
    stream = Stream(grant, hub, listener, keeper)
    closing = asyncio.create_task(stream.close())
    await keeper_stopping.wait()
    closing.cancel()
    await asyncio.wait({closing})
    await stream.close()  # a second close does nothing
    assert listener not in hub.listeners
