"""The private events' hub: each event reaches the listeners of the uids it names, and
no one else, through one subscription."""

import json

from streaming.hub import Recipient, get_personal_hub
from timeline.keys import PRIVATE_CHANNEL

from .clients import subscribers


async def test_an_event_reaches_the_listeners_it_names_only():
    hub = get_personal_hub()
    first, again, second, third = [await hub.join(Recipient(uid)) for uid in (1, 1, 2, 3)]
    try:
        hub.dispatch(json.dumps({"to": [1, 2], "type": "message", "n": 1}))
        hub.dispatch(json.dumps({"type": "no one named"}))
        hub.dispatch(json.dumps({"to": "1", "type": "not a list"}))
        for listener in (first, again, second):
            assert json.loads(listener.lines.get_nowait())["n"] == 1
            assert listener.lines.empty()
        assert third.lines.empty()
    finally:
        for listener in (first, again, second, third):
            await hub.leave(listener)
    assert not hub.listeners


async def test_the_hub_subscribes_to_the_private_channel_once(redis_conn):
    hub = get_personal_hub()
    listeners = [await hub.join(Recipient(uid)) for uid in range(3)]
    try:
        assert hub.channel == PRIVATE_CHANNEL
        assert subscribers(redis_conn, PRIVATE_CHANNEL) == 1
    finally:
        for listener in listeners:
            await hub.leave(listener)
