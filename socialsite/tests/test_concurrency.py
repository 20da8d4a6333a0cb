import asyncio
import threading

import pytest

from socialsite.concurrency import at_most, off_the_slot


async def test_at_most_lets_the_limit_in_and_the_rest_wait_their_turn():
    inside, served = [], []
    go_on = asyncio.Event()

    async def app(scope, receive, send):
        inside.append(scope["n"])
        await go_on.wait()
        inside.remove(scope["n"])
        served.append(scope["n"])

    limited = at_most(2, app)
    requests = [asyncio.create_task(limited({"n": n}, None, None)) for n in range(5)]
    await asyncio.sleep(0.05)
    assert inside == [0, 1]
    go_on.set()
    await asyncio.gather(*requests)
    assert sorted(served) == [0, 1, 2, 3, 4]


async def test_a_request_cancelled_while_waiting_or_failing_gives_its_place_back():
    go_on = asyncio.Event()

    async def app(scope, receive, send):
        if scope["fail"]:
            raise RuntimeError("the view failed")
        await go_on.wait()

    limited = at_most(1, app)
    holding = asyncio.create_task(limited({"fail": False}, None, None))
    waiting = asyncio.create_task(limited({"fail": False}, None, None))
    await asyncio.sleep(0.05)
    waiting.cancel()
    go_on.set()
    await holding
    with pytest.raises(RuntimeError):
        await limited({"fail": True}, None, None)
    # Both places came back: this one gets in at once.
    await asyncio.wait_for(limited({"fail": False}, None, None), timeout=1)


async def test_a_request_holding_its_slot_too_long_lets_the_next_one_in_beside_it(caplog):
    slow_may_end = asyncio.Event()
    served = []

    async def app(scope, receive, send):
        if scope["path"] == "/slow":
            await slow_may_end.wait()
        served.append(scope["path"])

    limited = at_most(1, app, slot_seconds=0.2)
    slow = asyncio.create_task(limited({"path": "/slow"}, None, None))
    await asyncio.sleep(0.05)
    # The slow one still holds the slot: the page waits, but only until slot_seconds.
    await asyncio.wait_for(limited({"path": "/page"}, None, None), timeout=2)
    assert served == ["/page"]
    assert "/slow held its request slot over HTTP_SLOT_SECONDS" in caplog.text
    slow_may_end.set()
    await slow
    # Only one place came back, not two: a request holds it, the next waits.
    holding = asyncio.create_task(limited({"path": "/slow"}, None, None))
    slow_may_end.clear()
    await asyncio.sleep(0.05)
    waiting = asyncio.create_task(limited({"path": "/page"}, None, None))
    await asyncio.sleep(0.1)
    assert served == ["/page", "/slow"] and not waiting.done()
    slow_may_end.set()
    await asyncio.gather(holding, waiting)


async def test_a_request_waiting_off_its_slot_lets_the_next_in_then_takes_its_turn_back():
    work_done = threading.Event()
    order = []

    def view() -> None:
        order.append("view starts")
        with off_the_slot():
            order.append("off the slot")
            work_done.wait(5)
        order.append("view has its slot back")

    async def app(scope, receive, send):
        if scope["path"] == "/upload":
            await asyncio.to_thread(view)
        else:
            order.append(scope["path"])

    limited = at_most(1, app)
    upload = asyncio.create_task(limited({"path": "/upload"}, None, None))
    await asyncio.sleep(0.1)
    await asyncio.wait_for(limited({"path": "/page"}, None, None), timeout=2)
    work_done.set()
    await asyncio.wait_for(upload, timeout=2)
    assert order == ["view starts", "off the slot", "/page", "view has its slot back"]


async def test_a_request_ended_while_off_its_slot_takes_no_place_back():
    work_done = threading.Event()
    served = []

    def view() -> None:
        with off_the_slot():
            work_done.wait(5)

    async def app(scope, receive, send):
        if scope["path"] == "/upload":
            await asyncio.to_thread(view)
        served.append(scope["path"])

    limited = at_most(1, app)
    upload = asyncio.create_task(limited({"path": "/upload"}, None, None))
    await asyncio.sleep(0.1)
    upload.cancel()  # its client went away; the view's thread runs on
    await asyncio.sleep(0.05)
    work_done.set()
    await asyncio.sleep(0.1)
    # Its thread asked for a place back after the request was over: it got none.
    await asyncio.wait_for(limited({"path": "/a"}, None, None), timeout=1)
    await asyncio.wait_for(limited({"path": "/b"}, None, None), timeout=1)
    assert served == ["/a", "/b"]


def test_off_the_slot_outside_a_request_does_nothing():
    ran = []
    with off_the_slot():
        ran.append("inside")
    assert ran == ["inside"]
