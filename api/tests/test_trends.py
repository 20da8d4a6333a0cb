"""Trends: GET /api/v1/trends/statuses (Status entities) and /api/v1/trends/links
(Trends::Link: a PreviewCard plus history), paged by offset and limit, as the Django
test client and a real Mastodon client (Mastodon.py against daphne) read them."""

import json
from datetime import UTC, datetime

from django.test import Client

from timeline.discovery import activity
from timeline.posting.services import post_status
from timeline.reactions.services import like
from timeline.safety import services as safety

CARD_FIELDS = {
    "url", "title", "description", "type", "author_name", "author_url", "provider_name",
    "provider_url", "html", "width", "height", "image", "embed_url", "blurhash", "history",
}  # fmt: skip


def count(published: list[dict]) -> None:
    """Feeds what was published to the activity listener, as a worker receives it."""
    for event in published:
        activity.record_event(json.dumps(event))


def test_trending_statuses_are_status_entities_paged_by_offset(make_user, api_as, events):
    authors = [make_user(f"author{n}") for n in range(3)]
    fans = [make_user(f"fan{n}") for n in range(3)]
    posted = [post_status(author.uid, f"hot take {n}") for n, author in enumerate(authors)]
    for n, status_id in enumerate(posted):
        for fan in fans[: 3 - n]:
            like(fan.uid, status_id)
    count(events())
    status, found, response = api_as(fans[0])("get", "/api/v1/trends/statuses?limit=2")
    assert status == 200
    assert [s["id"] for s in found] == [str(i) for i in posted[:2]]
    assert found[0]["account"]["username"] == "author0"
    assert found[0]["favourites_count"] == 3 and found[0]["favourited"] is True
    assert "offset=2" in response["Link"] and 'rel="next"' in response["Link"]
    rest = Client().get("/api/v1/trends/statuses", {"offset": 2, "limit": 2})
    assert [s["id"] for s in rest.json()] == [str(posted[2])]
    assert "Link" not in rest


def test_trending_statuses_leave_out_who_the_caller_blocks(make_user, api_as, events):
    ann, fan, reader = make_user("ann"), make_user("fan"), make_user("reader")
    like(fan.uid, post_status(ann.uid, "popular"))
    count(events())
    safety.block(reader.uid, ann.uid)
    assert api_as(reader)("get", "/api/v1/trends/statuses")[1] == []
    assert len(Client().get("/api/v1/trends/statuses").json()) == 1


def test_trending_links_are_preview_cards_with_history(make_user, events):
    ann, ben = make_user("ann"), make_user("ben")
    post_status(ann.uid, "https://example.com/story and https://example.org/")
    post_status(ann.uid, "again: https://example.com/story")
    post_status(ben.uid, "https://example.com/story")
    count(events())
    found = Client().get("/api/v1/trends/links").json()
    assert [link["url"] for link in found] == ["https://example.com/story", "https://example.org/"]
    story = found[0]
    assert set(story) >= CARD_FIELDS
    assert (story["type"], story["title"], story["provider_name"]) == (
        "link",
        "https://example.com/story",
        "example.com",
    )
    assert len(story["history"]) == 7
    assert (story["history"][0]["uses"], story["history"][0]["accounts"]) == ("3", "2")
    assert int(story["history"][0]["day"]) > int(story["history"][1]["day"])
    second = Client().get("/api/v1/trends/links", {"offset": 1, "limit": 1}).json()
    assert [link["url"] for link in second] == ["https://example.org/"]


def test_bad_offsets_and_limits_are_422(db):
    assert Client().get("/api/v1/trends/statuses", {"offset": "x"}).status_code == 422
    assert Client().get("/api/v1/trends/links", {"offset": -1}).status_code == 422
    assert Client().get("/api/v1/trends/links", {"limit": "many"}).status_code == 422
    assert Client().get("/api/v1/trends/statuses", {"limit": 500}).status_code == 200


def test_mastodon_py_reads_trending_statuses_and_links(mastodon_as, events):
    # The one test reading trends through daphne: its process keeps them a minute.
    alice, bob = mastodon_as("alice"), mastodon_as("bob")
    posted = alice.status_post("worth reading: https://example.com/long-read")
    bob.status_favourite(posted.id)
    bob.status_reblog(posted.id)
    count(events())
    statuses = bob.trending_statuses()
    assert [s.id for s in statuses] == [posted.id]
    assert statuses[0].account.username == "alice" and statuses[0].reblogged is True
    links = alice.trending_links(limit=5)
    assert [link.url for link in links] == ["https://example.com/long-read"]
    today = links[0].history[0]
    assert (today.uses, today.accounts, today.day.date()) == (1, 1, datetime.now(UTC).date())
    assert (links[0].type, links[0].title) == ("link", "https://example.com/long-read")
