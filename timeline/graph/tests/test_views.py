"""The profile page and the follow and unfollow buttons, as a browser posts them."""

import re

import pytest

from accounts.services import get_user
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.lists import services as lists
from timeline.lists.selectors import lists_of
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows, status_ids

# Profiles and following


def test_a_profile_shows_counts_statuses_and_a_follow_button(alice, bob):
    sid = posting.post_status(alice.uid, "about me")
    response = bob.client.get("/u/alice/")
    assert response.status_code == 200
    assert status_ids(response) == [sid]
    assert shows(response, "1 status")
    assert shows(response, "0 followers")
    assert 'action="/u/alice/follow/"' in page_text(response)


def test_a_profile_is_found_whatever_the_case_of_the_login(client, alice):
    assert client.get("/u/ALICE/").status_code == 200


def test_your_own_profile_has_no_follow_button(alice):
    response = alice.client.get("/u/alice/")
    assert "/follow/" not in page_text(response)


def test_a_profile_you_follow_offers_unfollow_and_followers_in_common(alice, bob, make_user):
    carol = make_user("carol")
    graph.follow_user(bob.uid, carol.uid)
    graph.follow_user(carol.uid, alice.uid)
    graph.follow_user(bob.uid, alice.uid)
    response = bob.client.get("/u/alice/")
    assert 'action="/u/alice/unfollow/"' in page_text(response)
    assert shows(response, "Followed by people you follow:")
    assert 'href="/u/carol/"' in page_text(response)


def test_an_unknown_user_is_not_found(client):
    response = client.get("/u/nobody/")
    assert response.status_code == 404
    assert shows(response, "There is no user @nobody.")


def test_following_and_unfollowing_change_the_graph_and_the_home_timeline(alice, bob):
    sid = posting.post_status(alice.uid, "follow me")
    response = bob.client.post("/u/alice/follow/", follow=True)
    assert shows(response, "You now follow @alice.")
    assert graph_selectors.is_following(bob.uid, alice.uid)
    assert get_user(alice.uid)["followers"] == 1
    assert status_ids(bob.client.get("/")) == [sid]

    response = bob.client.post("/u/alice/unfollow/", follow=True)
    assert shows(response, "You no longer follow @alice.")
    assert not graph_selectors.is_following(bob.uid, alice.uid)
    assert get_user(alice.uid)["followers"] == 0
    assert status_ids(bob.client.get("/")) == []


def test_following_goes_back_to_a_next_page_on_this_site_only(alice, bob):
    assert bob.client.post("/u/alice/follow/", {"next": "/timeline/"}).url == "/timeline/"
    response = bob.client.post("/u/alice/unfollow/", {"next": "https://evil.example/"})
    assert response.url == "/u/alice/"


def test_following_twice_says_so_and_changes_nothing(alice, bob):
    graph.follow_user(bob.uid, alice.uid)
    response = bob.client.post("/u/alice/follow/", follow=True)
    assert shows(response, "You already follow @alice.")
    assert get_user(alice.uid)["followers"] == 1
    assert get_user(bob.uid)["following"] == 1


def test_unfollowing_someone_you_do_not_follow_says_so(alice, bob):
    response = bob.client.post("/u/alice/unfollow/", follow=True)
    assert shows(response, "You weren't following @alice.")
    assert get_user(bob.uid)["following"] == 0


def test_following_yourself_is_refused_and_changes_nothing(alice):
    response = alice.client.post("/u/alice/follow/")
    assert response.status_code == 400
    assert shows(response, "You can't follow yourself.")
    assert get_user(alice.uid)["followers"] == get_user(alice.uid)["following"] == 0


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data; boundary=zz", b"a=1&" * 1001),  # no part: "headers too big"
        ("multipart/form-data", b"next=/"),  # no boundary
        ("application/x-www-form-urlencoded", b"a=1&" * 1001),  # too many fields
    ],
)
def test_a_form_that_can_not_be_read_is_refused_before_anything_changes(
    alice, bob, content_type, body
):
    """Found by the fuzz test: the follow was made, then reading `next` failed (a 400).
    Without a CSRF check (the test client's) nothing had read the body before."""
    list_id = lists.create_list(alice.uid, "Mine")
    for action in ("/u/bob/follow/", "/statuses/", f"/lists/{list_id}/delete/"):
        response = alice.client.generic("POST", action, body, content_type)
        assert response.status_code == 400, action
    assert get_user(alice.uid)["following"] == get_user(bob.uid)["followers"] == 0
    assert get_user(alice.uid)["posts"] == 0
    assert [x["id"] for x in lists_of(alice.uid)] == [list_id]


def test_following_an_unknown_user_is_not_found(alice):
    response = alice.client.post("/u/nobody/follow/")
    assert response.status_code == 404
    assert shows(response, "There is no user @nobody.")
    assert get_user(alice.uid)["following"] == 0


def test_following_while_logged_out_goes_to_the_login_page(client, alice):
    response = client.post("/u/alice/follow/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/u/alice/"
    assert get_user(alice.uid)["followers"] == 0


def test_followers_and_following_pages_list_people(client, alice, bob, make_user):
    carol = make_user("carol")
    graph.follow_user(bob.uid, alice.uid)
    graph.follow_user(carol.uid, alice.uid)
    followers = client.get("/u/alice/followers/")
    assert followers.status_code == 200
    assert shows(followers, "People following @alice")
    people = r'class="person" href="/u/(\w+)/"'
    assert re.findall(people, page_text(followers)) == ["carol", "bob"]
    following = client.get("/u/bob/following/")
    assert shows(following, "People @bob follows")
    assert re.findall(people, page_text(following)) == ["alice"]
    assert client.get("/u/nobody/followers/").status_code == 404
