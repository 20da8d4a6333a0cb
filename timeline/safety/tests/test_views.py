from timeline.graph.selectors import is_following
from timeline.graph.services import follow_user
from timeline.posting import services as posting
from timeline.safety import services
from timeline.safety.people import blocks_page, follow_requests_page, mutes_page
from timeline.tests.pages import shows, status_ids


def test_the_settings_page_makes_an_account_private_and_saves_muted_words(alice):
    assert shows(alice.client.get("/accounts/settings/"), "Privacy and safety")
    response = alice.client.post(
        "/privacy/", {"private": "on", "muted_words": "spoilers\nfinale"}, follow=True
    )
    assert shows(response, "Your account is private")
    assert services.muted_words(alice.uid) == ["finale", "spoilers"]
    response = alice.client.post("/privacy/", {"muted_words": "x" * 61})
    assert response.status_code == 400 and shows(response, "longer than 60 bytes")
    assert services.muted_words(alice.uid) == ["finale", "spoilers"]


def test_requests_are_listed_approved_and_rejected_on_the_requests_page(alice, bob, make_user):
    carol = make_user("carol")
    services.set_private(alice.uid, True)
    response = bob.client.post("/u/alice/follow/", follow=True)
    assert shows(response, "You asked to follow @alice") and shows(response, "Requested")
    follow_user(carol.uid, alice.uid)
    page = alice.client.get("/follow-requests/")
    assert shows(page, "@bob") and shows(page, "@carol")
    assert shows(
        alice.client.post("/follow-requests/bob/approve/", follow=True), "@bob now follows you."
    )
    assert is_following(bob.uid, alice.uid)
    alice.client.post("/follow-requests/carol/reject/")
    assert follow_requests_page(alice.uid)[0] == []
    assert alice.client.post("/follow-requests/carol/approve/").status_code == 400
    assert alice.client.post("/follow-requests/nobody/approve/").status_code == 404
    assert alice.client.get("/follow-requests/bob/approve/").status_code == 405


def test_nobody_approves_requests_for_someone_else(alice, bob, make_user):
    carol = make_user("carol")
    services.set_private(alice.uid, True)
    follow_user(bob.uid, alice.uid)
    # Carol approving "bob" acts on requests to follow carol: there are none.
    assert carol.client.post("/follow-requests/bob/approve/").status_code == 400
    assert not is_following(bob.uid, alice.uid)
    assert [u["login"] for u in follow_requests_page(alice.uid)[0]] == ["bob"]


def test_a_requester_cancels_from_the_profile(alice, bob):
    services.set_private(alice.uid, True)
    follow_user(bob.uid, alice.uid)
    response = bob.client.post("/u/alice/unfollow/", follow=True)
    assert shows(response, "You took back your request")
    assert follow_requests_page(alice.uid)[0] == []


def test_block_mute_and_their_pages(alice, bob, client):
    posting.post_status(bob.uid, "from bob")
    follow_user(alice.uid, bob.uid)
    assert shows(
        alice.client.post("/u/bob/mute/", {"duration": "3600"}, follow=True), "You mute @bob."
    )
    assert status_ids(alice.client.get("/")) == []
    assert shows(alice.client.get("/mutes/"), "@bob")
    assert alice.client.post("/u/bob/mute/", {"duration": "12"}).status_code == 400
    assert alice.client.post("/u/bob/mute/", {"duration": "-1"}).status_code == 400
    alice.client.post("/u/bob/unmute/")
    assert mutes_page(alice.uid)[0] == []
    assert shows(alice.client.post("/u/bob/block/", follow=True), "You block @bob.")
    assert shows(alice.client.get("/blocks/"), "@bob")
    assert not is_following(alice.uid, bob.uid)
    assert alice.client.post("/u/alice/block/").status_code == 400
    assert alice.client.post("/u/nobody/block/").status_code == 404
    alice.client.post("/u/bob/unblock/")
    assert blocks_page(alice.uid)[0] == []
    response = client.post("/u/bob/block/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get("/blocks/").status_code == 302


def test_removing_a_follower_from_their_profile(alice, bob):
    follow_user(bob.uid, alice.uid)
    assert shows(
        alice.client.post("/u/bob/remove-follower/", follow=True), "@bob no longer follows you."
    )
    assert not is_following(bob.uid, alice.uid)
