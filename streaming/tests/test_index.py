import asyncio
import json
import random

from accounts.services import create_user
from streaming.filters import create_stream_filter, location_filter
from streaming.hub import Hub
from streaming.index import FilterIndex
from timeline.graph.services import follow_user
from timeline.posting.services import delete_status, post_status

VOCABULARY = ["redis", "python", "big", "data", "cats", "dogs", "#redis", "Redis!", "news"]
LOGINS = ["ann", "bob", "cy", "dee"]


class Filed:
    def __init__(self, match) -> None:
        self.match = match


def random_filter(rng: random.Random, n: int):
    """One of the streams' filters, as a request would make it, chosen by `rng`."""
    kind = rng.choice(["sample", "track", "follow", "both", "location"])
    if kind == "sample":
        return create_stream_filter(f"key{n}", "sample", {"percent": str(rng.randint(1, 100))})
    count = rng.randint(1, 3)
    phrases = [" ".join(rng.sample(VOCABULARY, rng.randint(1, 2))) for _ in range(count)]
    logins = rng.sample(LOGINS, rng.randint(1, 2))
    params = {
        "track": {"track": ",".join(phrases)},
        "follow": {"follow": ",".join(logins)},
        "both": {"track": ",".join(phrases), "follow": ",".join(logins)},
        "location": {"location": "-10,-10,10,10", "track": phrases[0]},
    }[kind]
    return create_stream_filter(f"key{n}", "filter", params)


def random_event(rng: random.Random, status_id: int) -> dict:
    if rng.random() < 0.15:
        source, target = rng.sample(LOGINS, 2)
        kind = rng.choice(["follow", "unfollow", "block"])
        return {"event": kind, "source": {"id": 1, "login": source}, "target": {"login": target}}
    message = " ".join(rng.choices(VOCABULARY + [f"@{login}" for login in LOGINS], k=4))
    event = {"id": status_id, "uid": 1, "login": rng.choice(LOGINS).upper(), "message": message}
    if rng.random() < 0.3:
        event["location"] = f"{rng.uniform(-20, 20)},{rng.uniform(-20, 20)}"
    if rng.random() < 0.2:
        event["deleted"] = True
    return event


def test_an_event_finds_exactly_the_listeners_whose_filters_pass_it_each_once():
    rng = random.Random(20)
    listeners = [Filed(random_filter(rng, n)) for n in range(300)]
    index = FilterIndex()
    for listener in listeners:
        index.add(listener)
    for status_id in range(2_000):
        event = random_event(rng, status_id)
        found = list(index.candidates(event))
        assert len(found) == len(set(found))
        passed = {listener for listener in found if listener.match(event)}
        assert passed == {listener for listener in listeners if listener.match(event)}


def test_a_sample_finds_its_share_of_statuses_the_same_for_the_same_key():
    index = FilterIndex()
    tenth, again, other = (
        Filed(create_stream_filter(key, "sample", {"percent": "10"})) for key in ("k", "k", "j")
    )
    for listener in (tenth, again, other):
        index.add(listener)
    got = {tenth: [], again: [], other: []}
    for status_id in range(1_000, 2_000):
        event = {"id": status_id, "login": "ann", "message": "hi"}
        for listener in index.candidates(event):
            if listener.match(event):
                got[listener].append(status_id)
    assert len(got[tenth]) == len(got[other]) == 100
    assert got[tenth] == got[again] != got[other]


def test_a_listener_removed_is_gone_from_every_key():
    index = FilterIndex()
    track = Filed(create_stream_filter("k", "filter", {"track": "redis,big data", "follow": "ann"}))
    boxes = Filed(location_filter(["-10", "-10", "10", "10"]))
    index.add(track)
    index.add(boxes)
    event = {"id": 7, "login": "ann", "message": "big redis data", "location": "1,1"}
    assert set(index.candidates(event)) == {track, boxes}
    index.remove(track)
    index.remove(boxes)
    index.remove(boxes)  # twice: nothing happens
    assert index.by_key == {} and index.scanned == set()
    assert list(index.candidates(event)) == []


async def lines_until_quiet(listener, seconds: float = 0.5) -> list[dict]:
    lines = []
    while True:
        try:
            async with asyncio.timeout(seconds):
                lines.append(json.loads(await listener.lines.get()))
        except TimeoutError:
            return lines


def ids(lines: list[dict]) -> list:
    """Each line's status id, or a follow event's kind."""
    return [line.get("id", line.get("event")) for line in lines]


async def test_the_hub_relays_each_status_once_to_exactly_the_streams_that_match(alice_uid):
    hub = Hub()
    bob = create_user("bob", "Bob")
    filters = {
        "redis": {"track": "redis"},
        "phrase": {"track": "big data"},
        "redis or bob": {"track": "redis,python", "follow": "bob"},
        "mentions of alice": {"follow": "alice"},
    }
    streams = {
        name: await hub.join(create_stream_filter("k", "filter", params))
        for name, params in filters.items()
    }
    streams["sample"] = await hub.join(create_stream_filter("k", "sample", {"percent": "50"}))
    posted = [
        post_status(alice_uid, "Redis and python, big data"),
        post_status(bob, "python says hi to @alice"),
        post_status(bob, "data is big"),
        post_status(alice_uid, "nothing to see"),
    ]
    follow_user(alice_uid, bob)
    delete_status(alice_uid, posted[0])
    got = {name: await lines_until_quiet(listener) for name, listener in streams.items()}
    first, second, third, fourth = posted
    assert ids(got["redis"]) == [first, first]
    assert got["redis"][1] == {"id": first, "deleted": True}
    assert ids(got["phrase"]) == [first, third, first]
    # Matched by two phrases and by its author: each event once.
    assert ids(got["redis or bob"]) == [first, second, third, "follow", first]
    # alice's own statuses, bob's mention of her, and her following bob.
    assert ids(got["mentions of alice"]) == [first, second, fourth, "follow", first]
    sample = create_stream_filter("k", "sample", {"percent": "50"})
    kept = [sid for sid in posted if sample({"id": sid})]
    deleted = [first] if first in kept else []
    assert ids(got["sample"]) == kept + deleted
    for listener in streams.values():
        await hub.leave(listener)
    assert hub.index.by_key == {} and hub.index.scanned == set()


async def test_a_stream_that_left_gets_nothing_more(alice_uid):
    hub = Hub()
    staying = await hub.join(create_stream_filter("k", "filter", {"track": "redis"}))
    leaving = await hub.join(create_stream_filter("j", "filter", {"track": "redis"}))
    await hub.leave(leaving)
    status_id = post_status(alice_uid, "redis")
    assert ids(await lines_until_quiet(staying)) == [status_id]
    assert leaving.lines.empty()
    await hub.leave(staying)
