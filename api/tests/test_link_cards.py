"""Link preview cards through the client API: `card` on Status entities and
GET /api/v1/statuses/:id/card (the card, or {} as Mastodon answers), as the one
visibility rule allows; and as Mastodon.py reads them."""

import pytest
from django.test import Client, override_settings

from socialsite.testing.pages import Page, page_server
from timeline.linkcards.tests.site import jpeg_with_gps, og_page, run_jobs
from timeline.posting.services import post_status
from timeline.safety.services import set_private


@pytest.fixture
def pages():
    with override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=True), page_server() as server:
        server.pages["/og"] = Page(og_page())
        server.pages["/picture.jpg"] = Page(jpeg_with_gps(), headers={"Content-Type": "image/jpeg"})
        yield server


def test_a_status_entity_carries_its_card_and_the_card_endpoint_answers_it(alice, api_as, pages):
    status_id = post_status(alice.uid, f"look {pages.url('/og')}")
    call = api_as(alice)
    assert call("get", f"/api/v1/statuses/{status_id}")[1]["card"] is None
    assert call("get", f"/api/v1/statuses/{status_id}/card")[:2] == (200, {})
    run_jobs()
    status, body, _ = call("get", f"/api/v1/statuses/{status_id}")
    card = body["card"]
    assert status == 200 and card["url"] == pages.url("/og") and card["type"] == "link"
    assert card["title"] == "A page" and card["provider_name"] == "Example News"
    assert card["image"].startswith("/media/cards/") and (card["width"], card["height"]) == (
        640,
        427,
    )
    assert card["html"] == "" and card["image_description"] == "A red square"
    status, alone, _ = call("get", f"/api/v1/statuses/{status_id}/card")
    assert status == 200 and alone == card
    # On timelines too.
    (entity,) = call("get", f"/api/v1/accounts/{alice.uid}/statuses")[1]
    assert entity["card"] == card


def test_the_card_endpoint_follows_the_one_visibility_rule(alice, bob, api_as, pages):
    set_private(alice.uid, True)
    status_id = post_status(alice.uid, f"followers only {pages.url('/og')}")
    run_jobs()
    assert api_as(alice)("get", f"/api/v1/statuses/{status_id}/card")[1]["title"] == "A page"
    assert api_as(bob)("get", f"/api/v1/statuses/{status_id}/card")[0] == 404
    response = Client().get(f"/api/v1/statuses/{status_id}/card")
    assert response.status_code == 404 and response.json()["error"]


def test_the_card_of_a_missing_or_malformed_id_is_a_404(alice, api_as):
    for status_id in ("999999", "abc", "-1"):
        status, body, _ = api_as(alice)("get", f"/api/v1/statuses/{status_id}/card")
        assert status == 404 and body["error"]


def test_mastodon_py_reads_a_statuss_card(mastodon_as):
    alice = mastodon_as("alice")
    with override_settings(SOCIALSITE_FETCH_ALLOW_PRIVATE=True), page_server() as server:
        server.pages["/og"] = Page(og_page(image=""))
        posted = alice.status_post(f"a link: {server.url('/og')}")
        assert posted.card is None
        run_jobs()
    read = alice.status(posted.id)
    assert read.card.title == "A page" and read.card.url == server.url("/og")
    assert alice.status_card(posted.id).title == "A page"
