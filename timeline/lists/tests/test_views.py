import pytest

from timeline.lists import selectors as list_selectors
from timeline.lists import services as lists
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows, status_ids


@pytest.fixture
def alices_list(alice):
    return lists.create_list(alice.uid, "Friends")


def test_creating_a_list_from_the_lists_page(alice):
    response = alice.client.post("/lists/", {"name": "Redis people"}, follow=True)
    assert response.status_code == 200
    assert shows(response, "List created.")
    (created,) = list_selectors.lists_of(alice.uid)
    assert created["name"] == "Redis people"
    assert shows(alice.client.get("/lists/"), "Redis people · 0 members")


@pytest.mark.parametrize("name", ["", "   ", "x" * 26])
def test_a_bad_list_name_is_refused_on_the_lists_page(alice, name):
    response = alice.client.post("/lists/", {"name": name})
    assert response.status_code == 400
    assert shows(response, "A list name is 1 to 25 characters.")
    assert list_selectors.lists_of(alice.uid) == []


def test_a_list_name_with_a_bidi_override_is_a_form_error(alice, alices_list):
    response = alice.client.post("/lists/", {"name": "Fr\u202eiends"})
    assert response.status_code == 400
    assert shows(response, "Character 3 is a bidi override (U+202E)")
    assert [x["id"] for x in list_selectors.lists_of(alice.uid)] == [alices_list]
    response = alice.client.post(f"/lists/{alices_list}/rename/", {"name": "a\u200bb"})
    assert response.status_code == 400
    assert shows(response, "Character 2 is a zero-width character (U+200B)")
    assert list_selectors.get_list(alices_list)["name"] == "Friends"


def test_a_visitor_is_sent_to_log_in_for_their_lists(client):
    response = client.get("/lists/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_anyone_sees_a_users_lists(client, alice, alices_list):
    response = client.get("/u/alice/lists/")
    assert response.status_code == 200
    assert shows(response, "Friends · 0 members")
    assert "Create list" not in page_text(response)


def test_adding_a_member_shows_their_statuses_on_the_list(alice, bob, alices_list):
    sid = posting.post_status(bob.uid, "from bob")
    response = alice.client.post(
        f"/lists/{alices_list}/members/add/", {"login": "@Bob"}, follow=True
    )
    assert shows(response, "Added @bob.")
    assert shows(response, "Bob @bob")
    assert status_ids(alice.client.get(f"/lists/{alices_list}/")) == [sid]


def test_adding_an_unknown_login_is_a_bad_request(alice, alices_list):
    response = alice.client.post(f"/lists/{alices_list}/members/add/", {"login": "nobody"})
    assert response.status_code == 400
    assert shows(response, "There is no user @nobody.")
    assert list_selectors.get_list(alices_list)["members"] == 0


def test_changing_someone_elses_list_is_forbidden(alice, bob, alices_list):
    for url, data in [
        (f"/lists/{alices_list}/members/add/", {"login": "bob"}),
        (f"/lists/{alices_list}/rename/", {"name": "Mine now"}),
        (f"/lists/{alices_list}/delete/", {}),
    ]:
        response = bob.client.post(url, data)
        assert response.status_code == 403
        assert shows(response, "That list isn't yours.")
    the_list = list_selectors.get_list(alices_list)
    assert (the_list["name"], the_list["members"]) == ("Friends", 0)


def test_only_the_owner_sees_the_management_forms(client, alice, alices_list):
    assert "Rename" in page_text(alice.client.get(f"/lists/{alices_list}/"))
    assert "Rename" not in page_text(client.get(f"/lists/{alices_list}/"))
    assert "Login to add" not in page_text(client.get(f"/lists/{alices_list}/members/"))


def test_removing_renaming_and_deleting_a_list(alice, bob, alices_list):
    lists.add_member(alice.uid, alices_list, bob.uid)
    response = alice.client.post(
        f"/lists/{alices_list}/members/remove/", {"login": "bob"}, follow=True
    )
    assert shows(response, "Removed @bob.") and shows(response, "Nobody on this list yet.")
    response = alice.client.post(f"/lists/{alices_list}/rename/", {"name": "Pals"}, follow=True)
    assert (
        shows(response, "List renamed.") and list_selectors.get_list(alices_list)["name"] == "Pals"
    )
    response = alice.client.post(f"/lists/{alices_list}/rename/", {"name": ""})
    assert response.status_code == 400 and list_selectors.get_list(alices_list)["name"] == "Pals"
    response = alice.client.post(f"/lists/{alices_list}/delete/", follow=True)
    assert shows(response, "List deleted.") and list_selectors.lists_of(alice.uid) == []


def test_a_missing_list_is_not_found(client, alice):
    assert client.get("/lists/424242/").status_code == 404
    assert client.get("/lists/424242/members/").status_code == 404
    response = alice.client.post("/lists/424242/delete/")
    assert response.status_code == 404 and shows(response, "No such list.")
