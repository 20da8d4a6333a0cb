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


def test_adding_an_unknown_login_says_so_on_the_members_page(alice, alices_list):
    response = alice.client.post(f"/lists/{alices_list}/members/add/", {"login": "nobody"})
    assert response.status_code == 400
    assert shows(response, "Members of Friends")
    assert shows(response, "There is no user @nobody.")
    assert 'value="nobody"' in page_text(response)  # the login typed, to correct it
    assert not shows(response, "Bad request")
    assert list_selectors.get_list(alices_list)["members"] == 0


def test_adding_a_member_twice_says_so_on_the_members_page(alice, bob, alices_list):
    alice.client.post(f"/lists/{alices_list}/members/add/", {"login": "bob"})
    response = alice.client.post(f"/lists/{alices_list}/members/add/", {"login": "bob"})
    assert response.status_code == 400
    assert shows(response, "bob is already on this list.")
    assert shows(response, "Bob @bob")  # the members, still listed under the form
    assert list_selectors.get_list(alices_list)["members"] == 1


def test_removing_someone_not_on_the_list_says_so_on_the_members_page(alice, bob, alices_list):
    response = alice.client.post(f"/lists/{alices_list}/members/remove/", {"login": "bob"})
    assert response.status_code == 400
    assert shows(response, "Members of Friends") and shows(response, "bob isn't on this list.")


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


@pytest.fixture
def alices_secret(alice):
    return lists.create_list(alice.uid, "Secret", private=True)


def test_creating_a_private_list_from_the_lists_page(alice, bob):
    response = alice.client.post("/lists/", {"name": "Hush", "private": "on"}, follow=True)
    assert shows(response, "List created.") and shows(response, "private: only you see it")
    (created,) = list_selectors.lists_of(alice.uid, alice.uid)
    assert created["private"]
    assert shows(alice.client.get("/lists/"), "Hush · 0 members · private")
    assert bob.client.get(f"/lists/{created['id']}/").status_code == 404


def test_only_the_owner_sees_a_private_list_anywhere(client, alice, bob, alices_secret):
    lists.add_member(alice.uid, alices_secret, bob.uid)
    sid = posting.post_status(bob.uid, "in a secret list")
    assert status_ids(alice.client.get(f"/lists/{alices_secret}/")) == [sid]
    assert shows(alice.client.get(f"/lists/{alices_secret}/members/"), "Bob @bob")
    assert shows(alice.client.get("/u/alice/lists/"), "Secret")
    for reader in (client, bob.client):
        for url in (f"/lists/{alices_secret}/", f"/lists/{alices_secret}/members/"):
            response = reader.get(url)
            assert response.status_code == 404 and "Secret" not in page_text(response)
        lists_page = reader.get("/u/alice/lists/")
        assert "Secret" not in page_text(lists_page) and f"/lists/{alices_secret}/" not in (
            page_text(lists_page)
        )
    # Nor does bob's profile, where he is a member of it.
    assert "Secret" not in page_text(client.get("/u/bob/"))


def test_changing_someone_elses_private_list_is_not_found(alice, bob, alices_secret):
    for url, data in [
        (f"/lists/{alices_secret}/members/add/", {"login": "bob"}),
        (f"/lists/{alices_secret}/members/remove/", {"login": "bob"}),
        (f"/lists/{alices_secret}/rename/", {"name": "Mine now"}),
        (f"/lists/{alices_secret}/privacy/", {"private": "0"}),
        (f"/lists/{alices_secret}/delete/", {}),
    ]:
        response = bob.client.post(url, data)
        assert response.status_code == 404, url
        assert shows(response, "No such list.")
    the_list = list_selectors.get_list(alices_secret, alice.uid)
    assert (the_list["name"], the_list["members"], the_list["private"]) == ("Secret", 0, True)


def test_the_owner_makes_a_list_private_and_public_again(alice, bob, alices_list):
    response = alice.client.post(f"/lists/{alices_list}/privacy/", {"private": "1"}, follow=True)
    assert shows(response, "The list is private: only you see it.")
    assert shows(response, "Make it public")
    assert bob.client.get(f"/lists/{alices_list}/").status_code == 404
    response = alice.client.post(f"/lists/{alices_list}/privacy/", {"private": "0"}, follow=True)
    assert shows(response, "The list is public.") and shows(response, "Make it private")
    assert bob.client.get(f"/lists/{alices_list}/").status_code == 200


@pytest.mark.parametrize("value", ["", "yes", "2"])
def test_a_bad_privacy_value_is_refused_and_changes_nothing(alice, alices_list, value):
    response = alice.client.post(f"/lists/{alices_list}/privacy/", {"private": value})
    assert response.status_code == 400
    assert shows(response, "Say private=1 (only you see the list) or private=0 (anyone does).")
    assert not list_selectors.get_list(alices_list)["private"]


def test_a_profile_offers_the_viewers_lists_to_add_them_to(alice, bob, alices_list, alices_secret):
    page = page_text(alice.client.get("/u/bob/"))
    assert "Add to list" in page and "Friends" in page and "Secret" in page
    assert "Add to list" not in page_text(alice.client.get("/u/alice/"))  # not yourself
    assert "Add to list" not in page_text(bob.client.get("/u/alice/"))  # bob has no lists
    assert shows(bob.client.get("/u/alice/"), "Make a list to add @alice to it.")


def test_a_listless_viewers_refused_choice_shows_only_on_their_own_page(bob, make_user):
    carol, dave = make_user("carol"), make_user("dave")
    refused = carol.client.post("/u/bob/lists/membership/", {"action": "add"})
    assert refused.status_code == 400 and shows(refused, "Pick one of your lists.")
    for viewer in (carol, dave):
        page = viewer.client.get("/u/bob/")
        assert shows(page, "Make a list to add @bob to it.")
        assert not shows(page, "Pick one of your lists.")


def test_adding_and_removing_someone_from_their_profile(alice, bob, alices_secret):
    url = "/u/bob/lists/membership/"
    response = alice.client.post(url, {"list_id": alices_secret, "action": "add"}, follow=True)
    assert shows(response, "Added @bob to Secret.") and shows(response, "Secret (on it)")
    assert list_selectors.lists_for_member(alice.uid, bob.uid)[0]["has_member"]
    response = alice.client.post(url, {"list_id": alices_secret, "action": "remove"}, follow=True)
    assert shows(response, "Removed @bob from Secret.")
    assert not list_selectors.lists_for_member(alice.uid, bob.uid)[0]["has_member"]


def test_bad_input_to_the_add_to_list_control_is_a_form_error(alice, bob, make_user, alices_list):
    carols = lists.create_list(make_user("carol").uid, "Carol's")
    lists.add_member(alice.uid, alices_list, bob.uid)
    url = "/u/bob/lists/membership/"
    for data, error in [
        ({"list_id": carols, "action": "add"}, "Pick one of your lists."),
        ({"list_id": "424242", "action": "add"}, "Pick one of your lists."),
        ({"list_id": "x", "action": "add"}, "Pick one of your lists."),
        ({"action": "add"}, "Pick one of your lists."),
        ({"list_id": alices_list, "action": "zap"}, "Say add or remove."),
        ({"list_id": alices_list, "action": "add"}, "bob is already on this list."),
    ]:
        response = alice.client.post(url, data)
        assert response.status_code == 400, data
        assert shows(response, error) and shows(response, "Add to list"), data
    assert list_selectors.get_list(carols)["members"] == 0
    assert list_selectors.get_list(alices_list)["members"] == 1


def test_a_visitor_is_sent_to_log_in_before_adding_to_a_list(client, bob):
    response = client.post("/u/bob/lists/membership/", {"list_id": "1", "action": "add"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_adding_someone_in_place_answers_the_control_saying_so(alice, bob, alices_secret):
    url, htmx = "/u/bob/lists/membership/", {"HTTP_HX_REQUEST": "true"}
    response = alice.client.post(url, {"list_id": alices_secret, "action": "add"}, **htmx)
    assert response.status_code == 200
    text = page_text(response)
    assert text.startswith('<form class="list-membership"') and 'hx-post="/u/bob/lists' in text
    assert shows(response, "Added @bob to Secret.") and shows(response, "Secret (on it)")
    response = alice.client.post(url, {"list_id": "424242", "action": "add"}, **htmx)
    assert response.status_code == 400 and shows(response, "Pick one of your lists.")
    assert page_text(response).startswith('<form class="list-membership"')
