"""The group pages: the directory and my groups, a new group, a group's page with its
buttons and post box, members; bad input as form errors, 403 and 404."""

import re

import pytest

from timeline.groups import selectors as groups
from timeline.groups import services
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows, status_ids


@pytest.fixture
def cats(alice) -> int:
    return services.create_group(alice.uid, "cats", "Cat people", "All about cats.")


@pytest.fixture
def secret(alice) -> int:
    return services.create_group(alice.uid, "secret", "Secret club", kind="private")


def test_making_a_group_from_the_new_group_page(alice):
    assert alice.client.get("/groups/new/").status_code == 200
    form = {"handle": "Redis_fans", "name": "Redis fans", "description": "Keys!", "kind": "public"}
    response = alice.client.post("/groups/new/", form, follow=True)
    assert response.redirect_chain[-1][0] == "/g/Redis_fans/"
    assert shows(response, "Group created.")
    assert shows(response, "Redis fans") and shows(response, "Keys!")
    assert shows(response, "You own this group.")
    group = groups.group_for_handle("redis_fans")
    assert (group.name, group.kind, group.owner) == ("Redis fans", "public", alice.uid)


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ({"handle": "x", "name": "X"}, "A group's handle is 3 to 30 letters, digits or _."),
        ({"handle": "no spaces", "name": "X"}, "A group's handle is 3 to 30 letters"),
        ({"handle": "fine", "name": ""}, "A group's name is 1 to 50 characters."),
        ({"handle": "fine", "name": "x" * 51}, "A group's name is 1 to 50 characters."),
        ({"handle": "fine", "name": "Fine", "kind": "secretive"}, "Pick public, private"),
        ({"handle": "fine", "name": "A\u202eB"}, "bidi override"),
    ],
)
def test_a_bad_new_group_is_a_form_error_that_makes_nothing(alice, form, error):
    response = alice.client.post("/groups/new/", {"kind": "public", **form})
    assert response.status_code == 400
    assert shows(response, error)
    assert groups.directory()[0] == []


def test_a_taken_handle_in_any_case_is_a_form_error(alice, bob, cats):
    response = bob.client.post("/groups/new/", {"handle": "CATS", "name": "More cats"})
    assert response.status_code == 400
    assert shows(response, "That handle is taken.")


def test_a_visitor_is_sent_to_log_in_to_make_a_group(client):
    response = client.get("/groups/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_directory_lists_every_kind_searches_and_orders(alice, bob, cats, secret):
    services.create_group(bob.uid, "dogs", "Dog people", kind="announcement")
    services.join_group(cats, bob.uid)
    response = bob.client.get("/groups/")
    assert response.status_code == 200
    directory = page_text(response).split('id="directory"')[1]
    # Most members first: cats has 2; a private group's name is public.
    assert re.findall(r'href="/g/(\w+)/"', directory) == ["cats", "dogs", "secret"]
    newest = bob.client.get("/groups/?order=newest")
    assert re.findall(r'href="/g/(\w+)/"', page_text(newest).split('id="directory"')[1]) == [
        "dogs",
        "secret",
        "cats",
    ]
    found = bob.client.get("/groups/?q=cat")
    assert re.findall(r'href="/g/(\w+)/"', page_text(found).split('id="directory"')[1]) == ["cats"]
    assert shows(bob.client.get("/groups/?q=zebra"), "No group's name or handle has that.")


def test_my_groups_lists_the_viewers_groups_and_requests(alice, bob, cats, secret):
    services.join_group(cats, bob.uid)
    services.join_group(secret, bob.uid)
    mine = page_text(bob.client.get("/groups/")).split('id="my-groups-list"')[1]
    mine = mine.split("</ul>")[0]
    assert "/g/cats/" in mine and "/g/secret/" in mine
    assert "you: member" in mine and "requested" in mine


@pytest.mark.parametrize("query", ["order=best", "page=0", "page=x"])
def test_a_bad_directory_order_or_page_is_a_404(client, query):
    assert client.get(f"/groups/?{query}").status_code == 404


def test_an_unknown_group_is_a_404(client, alice):
    assert client.get("/g/nope/").status_code == 404
    assert alice.client.post("/g/nope/join/").status_code == 404
    assert client.get("/g/nope/members/").status_code == 404


def test_joining_posting_and_leaving_a_public_group(alice, bob, cats):
    page = bob.client.get("/g/cats/")
    assert shows(page, "Join") and 'id="group-post"' not in page_text(page)
    response = bob.client.post("/g/cats/join/", follow=True)
    assert shows(response, "You joined Cat people.")
    assert 'id="group-post"' in page_text(response)
    form = {"message": "meow", "group": "cats", "next": "/g/cats/"}
    response = bob.client.post("/statuses/", form, follow=True)
    assert response.redirect_chain[-1][0] == "/g/cats/"
    assert shows(response, "Posted to Cat people.")
    (posted,) = groups.timeline_ids(cats)
    assert status_ids(response) == [posted]
    # The card names the group, on the group page and on the author's profile.
    assert shows(response, "in Cat people")
    assert shows(bob.client.get("/u/bob/"), "in Cat people")
    response = bob.client.post("/g/cats/leave/", follow=True)
    assert shows(response, "You left Cat people.")
    assert groups.membership(cats, bob.uid).role is None


def test_a_visitor_reads_a_public_group_and_is_asked_to_log_in_to_join(client, alice, cats):
    posting.post_status(alice.uid, "hello cats", group=cats)
    response = client.get("/g/cats/")
    assert response.status_code == 200
    assert shows(response, "hello cats") and shows(response, "Log in to join")
    joined = client.post("/g/cats/join/")
    assert joined.status_code == 302 and "/accounts/login/" in joined["Location"]


def test_a_private_groups_page_hides_its_posts_from_non_members(client, alice, bob, secret):
    posting.post_status(alice.uid, "members only", group=secret)
    for reader in (client, bob.client):
        response = reader.get("/g/secret/")
        assert response.status_code == 200
        assert shows(response, "Secret club")  # its name is public
        assert not shows(response, "members only")
        assert shows(response, "Only the members of Secret club read its posts.")
        assert reader.get("/g/secret/members/").status_code == 404
        assert reader.get("/g/secret/?page=2").status_code == 404
    assert shows(alice.client.get("/g/secret/"), "members only")


def test_asking_to_join_a_private_group_and_taking_it_back(alice, bob, secret):
    response = bob.client.post("/g/secret/join/", follow=True)
    assert shows(response, "You asked to join Secret club")
    assert shows(response, "Requested · cancel")
    response = bob.client.post("/g/secret/leave/", follow=True)
    assert shows(response, "You took back your request to join Secret club.")
    assert not groups.membership(secret, bob.uid).requested


def test_the_show_in_home_switch(alice, bob, cats):
    services.join_group(cats, bob.uid)
    assert shows(bob.client.get("/g/cats/"), "Stop showing its posts in my home")
    response = bob.client.post("/g/cats/home/", {"on": "0"}, follow=True)
    assert shows(response, "Cat people's posts stay off your home.")
    assert not groups.membership(cats, bob.uid).show_in_home
    assert shows(response, "Show its posts in my home")
    assert bob.client.post("/g/cats/home/", {"on": "maybe"}).status_code == 400


def test_a_non_member_may_not_switch_show_in_home(alice, bob, cats):
    response = bob.client.post("/g/cats/home/", {"on": "0"})
    assert response.status_code == 400
    assert shows(response, "Only the group's members choose that.")


def test_the_owner_cant_leave(alice, cats):
    response = alice.client.post("/g/cats/leave/")
    assert response.status_code == 400
    assert shows(response, "The owner can't leave: hand the group over first.")


def test_posting_to_a_group_one_isnt_in_is_a_form_error_on_the_group_page(alice, bob, cats):
    form = {"message": "let me in", "group": "cats", "next": "/g/cats/"}
    response = bob.client.post("/statuses/", form)
    assert response.status_code == 400
    assert shows(response, "Only the group's members post there.")
    assert shows(response, "Cat people")  # the group's page, shown again
    assert groups.timeline_ids(cats) == []


def test_the_composer_refuses_an_unknown_group(alice):
    response = alice.client.post("/statuses/", {"message": "hi", "group": "nowhere"})
    assert response.status_code == 400
    assert shows(response, "There is no group nowhere: pick one of yours.")
    assert 'id="timeline"' in page_text(response)  # home, shown again


def test_only_moderators_post_to_an_announcement_group(alice, bob):
    news = services.create_group(alice.uid, "news", "News", kind="announcement")
    services.join_group(news, bob.uid)
    assert 'id="group-post"' not in page_text(bob.client.get("/g/news/"))
    response = bob.client.post("/statuses/", {"message": "hi", "group": "news"})
    assert response.status_code == 400
    assert shows(response, "Only the group's moderators post in an announcement group.")
    assert 'id="group-post"' in page_text(alice.client.get("/g/news/"))


def test_the_members_page_shows_roles(alice, bob, cats):
    services.join_group(cats, bob.uid)
    response = bob.client.get("/g/cats/members/")
    assert response.status_code == 200
    assert shows(response, "Alice @alice owner") and shows(response, "Bob @bob member")
    # A member gets no moderators' buttons.
    assert "/members/alice/remove/" not in page_text(response)


def test_the_home_composer_picks_among_the_viewers_groups(alice, bob, cats, make_user):
    services.create_group(bob.uid, "news", "News", kind="announcement")
    services.join_group(cats, bob.uid)
    picker = page_text(bob.client.get("/")).split('name="group"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w*)"', picker) == ["", "news", "cats"]
    response = bob.client.post("/statuses/", {"message": "from home", "group": "cats"})
    assert response.status_code == 302
    assert len(groups.timeline_ids(cats)) == 1
    # Without groups, no picker.
    assert 'name="group"' not in page_text(make_user("carol").client.get("/"))


def test_the_nav_links_to_groups(alice):
    assert 'href="/groups/"' in page_text(alice.client.get("/"))
