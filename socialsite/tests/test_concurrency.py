import asyncio

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
