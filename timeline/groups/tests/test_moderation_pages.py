"""The group moderators' pages: join requests, the moderation page (edit, avatar, pins,
removing posts, deleting the group), members' roles, removals and bans; everyone else
gets a 403, a visitor the login page, bad input a form error."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from timeline.groups import selectors as groups
from timeline.groups import services
from timeline.groups.moderation import set_role
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows


@pytest.fixture
def secret(alice) -> int:
    return services.create_group(alice.uid, "secret", "Secret club", kind="private")


@pytest.fixture
def cats(alice) -> int:
    return services.create_group(alice.uid, "cats", "Cat people")


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 120), "teal").save(out, "PNG")
    return out.getvalue()


def test_a_moderator_approves_and_rejects_requests(alice, bob, make_user, secret):
    carol = make_user("carol")
    services.join_group(secret, bob.uid)
    services.join_group(secret, carol.uid)
    page = alice.client.get("/g/secret/requests/")
    assert page.status_code == 200
    assert shows(page, "Bob @bob") and shows(page, "Carol @carol")
    response = alice.client.post("/g/secret/requests/bob/approve/", follow=True)
    assert shows(response, "@bob is now a member of Secret club.")
    assert groups.membership(secret, bob.uid).role == "member"
    response = alice.client.post("/g/secret/requests/carol/reject/", follow=True)
    assert shows(response, "You turned down @carol's request.")
    assert groups.membership(secret, carol.uid).role is None
    assert shows(response, "Nobody is asking to join.")


def test_approving_someone_who_didnt_ask_is_a_400(alice, bob, secret):
    response = alice.client.post("/g/secret/requests/bob/approve/")
    assert response.status_code == 400
    assert groups.membership(secret, bob.uid).role is None


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/g/secret/requests/"),
        ("get", "/g/secret/moderate/"),
        ("post", "/g/secret/requests/carol/approve/"),
        ("post", "/g/secret/moderate/"),
        ("post", "/g/secret/members/alice/remove/"),
        ("post", "/g/secret/delete/"),
    ],
)
def test_someone_not_a_moderator_gets_a_403_and_changes_nothing(
    alice, bob, make_user, secret, method, path
):
    carol = make_user("carol")
    services.join_group(secret, carol.uid)
    services.join_group(secret, bob.uid)
    response = getattr(bob.client, method)(path, {"name": "Taken over"})
    assert response.status_code == 403
    assert shows(response, "Only the moderators of Secret club")
    assert groups.get_group(secret).name == "Secret club"
    assert groups.membership(secret, carol.uid).requested


def test_a_visitor_is_sent_to_log_in_for_moderation(client, secret):
    for path in ("/g/secret/requests/", "/g/secret/moderate/"):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get("/g/nope/moderate/").status_code == 302


def test_an_unknown_group_is_a_404_to_a_logged_in_moderator(alice):
    assert alice.client.get("/g/nope/moderate/").status_code == 404
    assert alice.client.post("/g/nope/pin/1/").status_code == 404


def test_editing_the_group_and_a_bad_name_is_a_form_error(alice, cats):
    page = alice.client.get("/g/cats/moderate/")
    assert page.status_code == 200 and 'value="Cat people"' in page_text(page)
    response = alice.client.post("/g/cats/moderate/", {"name": "", "description": "x"})
    assert response.status_code == 400
    assert shows(response, "A group's name is 1 to 50 characters.")
    response = alice.client.post(
        "/g/cats/moderate/", {"name": "Cat lovers", "description": "Purr."}, follow=True
    )
    assert shows(response, "Saved.")
    group = groups.get_group(cats)
    assert (group.name, group.description) == ("Cat lovers", "Purr.")


def test_the_groups_avatar_and_a_bad_picture(alice, cats):
    bad = SimpleUploadedFile("a.png", b"not a picture", content_type="image/png")
    response = alice.client.post("/g/cats/avatar/", {"avatar": bad})
    assert response.status_code == 400 and 'id="avatar-error"' in page_text(response)
    assert alice.client.post("/g/cats/avatar/", {}).status_code == 400
    assert groups.get_group(cats).avatar == ""
    good = SimpleUploadedFile("a.png", png(), content_type="image/png")
    response = alice.client.post("/g/cats/avatar/", {"avatar": good}, follow=True)
    assert shows(response, "The group's avatar is changed.")
    token = groups.get_group(cats).avatar
    assert token and f"{token}-400.webp" in page_text(alice.client.get("/g/cats/"))


def test_pinning_unpinning_and_removing_posts(alice, bob, cats):
    services.join_group(cats, bob.uid)
    first = posting.post_status(bob.uid, "pin me", group=cats)
    second = posting.post_status(bob.uid, "remove me", group=cats)
    response = alice.client.post(f"/g/cats/pin/{first}/", follow=True)
    assert shows(response, "Pinned to Cat people.")
    assert groups.get_group(cats).pinned == (first,)
    pinned = page_text(alice.client.get("/g/cats/")).split('id="pinned"')[1].split("</section>")[0]
    assert f'data-status-id="{first}"' in pinned
    alice.client.post(f"/g/cats/unpin/{first}/")
    assert groups.get_group(cats).pinned == ()
    response = alice.client.post(f"/g/cats/remove/{second}/", follow=True)
    assert shows(response, "The post is off Cat people.")
    assert groups.timeline_ids(cats) == [first]
    # Only the group's own posts.
    elsewhere = posting.post_status(bob.uid, "not in the group")
    assert alice.client.post(f"/g/cats/pin/{elsewhere}/").status_code == 400


def test_removing_banning_and_unbanning_a_member(alice, bob, cats):
    services.join_group(cats, bob.uid)
    page = alice.client.get("/g/cats/members/")
    assert "/g/cats/members/bob/ban/" in page_text(page)
    response = alice.client.post("/g/cats/members/bob/ban/", follow=True)
    assert shows(response, "@bob is out of Cat people, and may not join again.")
    assert groups.membership(cats, bob.uid).banned
    banned = page_text(response).split('id="banned"')[1]
    assert "/g/cats/members/bob/unban/" in banned
    assert 'id="banned"' not in page_text(bob.client.get("/g/cats/members/"))
    assert bob.client.post("/g/cats/join/").status_code == 400
    alice.client.post("/g/cats/members/bob/unban/")
    assert bob.client.post("/g/cats/join/").status_code == 302
    response = alice.client.post("/g/cats/members/bob/remove/", follow=True)
    assert shows(response, "@bob is out of Cat people.")
    assert groups.membership(cats, bob.uid).role is None


def test_the_owner_names_a_moderator_and_hands_the_group_over(alice, bob, cats):
    services.join_group(cats, bob.uid)
    response = alice.client.post("/g/cats/members/bob/role/", {"role": "moderator"}, follow=True)
    assert shows(response, "@bob is a moderator of Cat people.")
    assert bob.client.get("/g/cats/moderate/").status_code == 200
    assert alice.client.post("/g/cats/members/bob/role/", {"role": "king"}).status_code == 400
    response = alice.client.post("/g/cats/members/bob/transfer/", follow=True)
    assert shows(response, "@bob owns Cat people now.")
    assert groups.get_group(cats).owner == bob.uid


def test_a_moderator_may_not_name_moderators(alice, bob, make_user, cats):
    carol = make_user("carol")
    for member in (bob, carol):
        services.join_group(cats, member.uid)
    set_role(cats, alice.uid, bob.uid, "moderator")
    response = bob.client.post("/g/cats/members/carol/role/", {"role": "moderator"})
    assert response.status_code == 400
    assert groups.membership(cats, carol.uid).role == "member"


def test_the_owner_deletes_the_group(alice, cats):
    response = alice.client.post("/g/cats/delete/", follow=True)
    assert response.redirect_chain[-1][0] == "/groups/"
    assert shows(response, "Cat people is deleted")
    assert alice.client.get("/g/cats/").status_code == 404
