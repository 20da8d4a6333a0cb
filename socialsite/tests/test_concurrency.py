import asyncio

import pytest

from socialsite.concurrency import at_most


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
