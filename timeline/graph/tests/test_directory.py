"""The people directory (/directory/): newest or most followed first, paged, with
follow buttons, as the viewer may see it."""

import re

import pytest

from accounts.services import set_suspended
from timeline.graph import directory
from timeline.graph import services as graph
from timeline.safety import services as safety
from timeline.tests.pages import page_text, shows


def listed(response) -> list[str]:
    """The logins the directory page lists, in order."""
    text = page_text(response)
    body = text[text.index('id="directory"') :]
    return re.findall(r'class="person" href="/u/(\w+)/"', body)


def test_the_directory_lists_everyone_newest_first_with_follow_buttons(client, make_user):
    ann, _ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    response = client.get("/directory/")
    assert response.status_code == 200
    assert listed(response) == ["cat", "ben", "ann"]
    response = ann.client.get("/directory/")
    text = page_text(response)
    assert "/u/cat/follow/" in text and "/u/ann/follow/" not in text  # not yourself
    graph.follow_user(ann.uid, cat.uid)
    assert "/u/cat/unfollow/" in page_text(ann.client.get("/directory/"))
    assert shows(ann.client.get("/directory/"), "Cat @cat 1 follower")


def test_the_directory_lists_the_most_followed_first(client, make_user):
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    fans = [make_user() for _ in range(2)]
    for fan in fans:
        graph.follow_user(fan.uid, ben.uid)
    graph.follow_user(fans[0].uid, ann.uid)
    response = client.get("/directory/", {"order": "followed"})
    assert listed(response)[:2] == ["ben", "ann"]
    assert cat.uid not in [p["id"] for p in directory.directory_page("followed", 1, None).people]


def test_the_directory_is_paged(client, make_user, monkeypatch):
    monkeypatch.setattr(directory, "PEOPLE_PER_PAGE", 2)
    for login in ("ann", "ben", "cat"):
        make_user(login)
    first = client.get("/directory/")
    assert listed(first) == ["cat", "ben"]
    assert 'href="?order=newest&amp;page=2"' in page_text(first)
    assert listed(client.get("/directory/", {"page": 2})) == ["ann"]
    assert client.get("/directory/", {"page": 3}).status_code == 404


def test_the_directory_leaves_out_the_suspended_and_whoever_blocks_you(make_user):
    ann, ben, cat, dan = (make_user(n) for n in ("ann", "ben", "cat", "dan"))
    set_suspended(ben.uid, True)
    safety.block(cat.uid, ann.uid)
    assert listed(ann.client.get("/directory/")) == ["dan", "ann"]
    assert listed(dan.client.get("/directory/")) == ["dan", "cat", "ann"]


def test_a_bad_directory_order_is_a_clear_400(client):
    response = client.get("/directory/", {"order": "random"})
    assert response.status_code == 400
    assert shows(response, "Order the directory by newest or followed.")


@pytest.mark.parametrize("order", ["newest", "followed"])
def test_an_empty_directory_says_so(client, order):
    assert shows(client.get("/directory/", {"order": order}), "Nobody here yet.")
