from django.urls import reverse

from accounts.services import set_suspended
from timeline.graph import selectors, services
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows


def test_followers_page_has_a_follow_button_by_each_person_as_the_viewer_relates(
    alice, bob, make_user
):
    carol, dave = make_user("carol"), make_user("dave")
    for follower in (bob, carol, dave):
        services.follow_user(follower.uid, alice.uid)
    services.follow_user(alice.uid, carol.uid)

    page = page_text(alice.client.get("/u/alice/followers/"))
    assert f'action="{reverse("unfollow", args=["carol"])}"' in page
    assert f'action="{reverse("follow", args=["bob"])}"' in page
    assert 'aria-label="Follow @dave"' in page and 'aria-label="Unfollow @carol"' in page


def test_no_button_by_yourself_and_none_for_visitors(client, alice, bob):
    services.follow_user(bob.uid, alice.uid)
    assert "Follow @bob" not in page_text(bob.client.get("/u/alice/followers/"))
    response = client.get("/u/alice/followers/")
    assert shows(response, "Bob @bob") and 'aria-label="Follow' not in page_text(response)


def test_following_from_the_list_comes_back_to_it(alice, bob):
    services.follow_user(bob.uid, alice.uid)
    response = alice.client.post(
        "/u/bob/follow/", {"next": "/u/alice/followers/?page=1"}, follow=True
    )
    assert response.redirect_chain[-1][0] == "/u/alice/followers/?page=1"
    assert shows(response, "You now follow @bob.")
    assert 'aria-label="Unfollow @bob"' in page_text(response)


def test_following_among_reads_which_of_them_you_follow(alice, bob, make_user):
    carol = make_user("carol")
    services.follow_user(alice.uid, carol.uid)
    assert selectors.following_among(alice.uid, [bob.uid, carol.uid]) == {carol.uid}
    assert selectors.following_among(None, [bob.uid]) == set()
    assert selectors.following_among(alice.uid, []) == set()


def test_a_suspended_users_profile_says_they_are_suspended(client, alice):
    for n in range(3):
        posting.post_status(alice.uid, f"post {n}")
    set_suspended(alice.uid, True)
    response = client.get("/u/alice/")
    assert response.status_code == 200
    assert shows(response, "This account is suspended: its statuses are hidden.")
    assert shows(response, "No statuses shown while the account is suspended.")
    assert not shows(response, "No statuses yet.")
