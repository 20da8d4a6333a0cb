import json

import pytest
from django.test import override_settings

from timeline.export import selectors as export
from timeline.graph import services as graph
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.reactions import services as reactions


def download(client) -> tuple[object, dict]:
    response = client.post("/export/")
    return response, json.loads(b"".join(response))


@pytest.fixture
def network(alice, bob, make_user):
    carol = make_user("carol")
    graph.follow_user(alice.uid, bob.uid)
    graph.follow_user(carol.uid, alice.uid)
    first = posting.post_status(alice.uid, "hello <world> \N{GRINNING FACE}", location="1.5,2.5")
    answer = posting.post_status(bob.uid, "hi @alice")
    reply = posting.post_status(alice.uid, "@bob hi back", in_reply_to=answer)
    reactions.like(alice.uid, answer)
    friends = lists.create_list(alice.uid, "Friends", private=True)
    lists.add_member(alice.uid, friends, bob.uid)
    lists.add_member(alice.uid, friends, carol.uid)
    return {"first": first, "answer": answer, "reply": reply, "list": friends}


def test_the_export_is_every_section_of_the_users_data(alice, network):
    response, data = download(alice.client)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="socialsite-alice-')
    assert data["format"] == "socialsite-export" and data["version"] == 1
    profile = data["profile"]
    assert profile["login"] == "alice" and profile["name"] == "Alice"
    assert profile["posts"] == 2 and profile["followers"] == 1 and profile["following"] == 1
    assert "session_generation" not in profile and "suspended" not in profile

    statuses = data["statuses"]
    assert [s["id"] for s in statuses] == [network["reply"], network["first"]]
    assert statuses[1]["message"] == "hello <world> \N{GRINNING FACE}"
    assert statuses[1]["location"] == "1.5,2.5"
    assert statuses[0]["in_reply_to"] == network["answer"]
    assert statuses[0]["in_reply_to_login"] == "bob"
    assert data["following"] == [{"login": "bob", "name": "Bob"}]
    assert data["followers"] == [{"login": "carol", "name": "Carol"}]
    [the_list] = data["lists"]
    assert the_list["name"] == "Friends" and the_list["private"] is True
    assert sorted(the_list["members"]) == ["bob", "carol"]
    assert data["likes"] == [
        {
            "id": network["answer"],
            "login": "bob",
            "message": "hi @alice",
            "posted": data["likes"][0]["posted"],
        }
    ]


def test_a_new_account_exports_empty_sections(bob):
    _, data = download(bob.client)
    assert data["profile"]["login"] == "bob"
    for section in ("statuses", "following", "followers", "lists", "likes"):
        assert data[section] == []
    for section in ("bookmarks", "pinned", "followed_tags"):
        assert data[section] == []


def test_the_export_holds_what_the_user_keeps(alice, bob):
    from timeline.keeps import services as keeps

    theirs = posting.post_status(bob.uid, "worth keeping")
    mine = posting.post_status(alice.uid, "pinned")
    keeps.bookmark(alice.uid, theirs)
    keeps.pin(alice.uid, mine)
    keeps.follow_tag(alice.uid, "Redis")
    _, data = download(alice.client)
    assert [(b["id"], b["login"], b["message"]) for b in data["bookmarks"]] == [
        (theirs, "bob", "worth keeping")
    ]
    assert data["pinned"] == [{"id": mine}]
    assert [tag["name"] for tag in data["followed_tags"]] == ["redis"]


def test_a_big_account_is_read_a_page_at_a_time(alice, monkeypatch):
    monkeypatch.setattr(export, "EXPORT_PAGE_SIZE", 3)
    posted = [posting.post_status(alice.uid, f"status {n}") for n in range(8)]
    chunks = list(export.export_chunks(alice.uid, now=0))
    data = json.loads("".join(chunks))
    assert [s["id"] for s in data["statuses"]] == posted[::-1]
    # Pages of 3: the 8 statuses came in 3 pieces.
    assert sum(1 for chunk in chunks if '"message": "status' in chunk) == 3


def test_deleted_statuses_are_not_exported(alice):
    kept = posting.post_status(alice.uid, "kept")
    gone = posting.post_status(alice.uid, "gone")
    posting.delete_status(alice.uid, gone)
    _, data = download(alice.client)
    assert [s["id"] for s in data["statuses"]] == [kept]


def test_exporting_takes_a_post_and_a_login(client, alice):
    assert alice.client.get("/export/").status_code == 405
    response = client.post("/export/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_exports_are_rate_limited(alice):
    with override_settings(RATE_LIMITS={"exports": (1, 3600)}):
        assert download(alice.client)[0].status_code == 200
        response = alice.client.post("/export/")
        assert response.status_code == 429 and response["Retry-After"]


def test_an_unknown_user_has_nothing_to_export():
    with pytest.raises(ValueError, match="No such user"):
        list(export.export_chunks(4242, now=0))


def test_the_settings_page_offers_the_download(alice):
    page = alice.client.get("/accounts/settings/").content.decode()
    assert 'action="/export/"' in page and "Download my data" in page


def test_the_export_holds_the_users_filters_and_markers(alice):
    from accounts import filters, markers
    from timeline.safety import services as safety

    safety.set_muted_words(alice.uid, "cats")
    filters.create_filter(alice.uid, title="Later", context=["public"], expires_in=60)
    markers.save_markers(alice.uid, {"home": "42"})
    _, data = download(alice.client)
    assert [(f["title"], f["filter_action"]) for f in data["filters"]] == [
        ("Muted words", "hide"),
        ("Later", "warn"),
    ]
    assert data["filters"][0]["keywords"][0]["keyword"] == "cats"
    assert data["filters"][1]["expires_at"].endswith("Z") or "T" in data["filters"][1]["expires_at"]
    (marker,) = data["markers"]
    assert marker["timeline"] == "home" and marker["last_read_id"] == "42"
    assert marker["version"] == 1
