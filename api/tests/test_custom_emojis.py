"""Custom emojis through the client API: the list (no token needed), and the `emojis`
a Status and an Account name; with Mastodon.py too."""

from accounts import emojis
from accounts.services import update_name
from accounts.tests.test_emojis import picture
from timeline.posting.services import post_status


def test_the_api_lists_emojis_and_names_those_a_status_and_account_use(alice, api_as, client):
    emojis.add_emoji("blobcat", picture(), category="cats")
    (listed,) = client.get("/api/v1/custom_emojis").json()
    assert listed["shortcode"] == "blobcat" and listed["category"] == "cats"
    assert listed["url"].startswith("http://testserver/") and listed["visible_in_picker"] is True
    update_name(alice.uid, "Alice :blobcat:")
    status_id = post_status(alice.uid, "hi :blobcat:")
    entity = api_as(alice)("get", f"/api/v1/statuses/{status_id}")[1]
    assert [e["shortcode"] for e in entity["emojis"]] == ["blobcat"]
    assert ":blobcat:" in entity["content"]  # apps draw it from `emojis`
    assert [e["shortcode"] for e in entity["account"]["emojis"]] == ["blobcat"]


def test_custom_emojis_with_mastodon_py(mastodon_as):
    emojis.add_emoji("blobcat", picture())
    alice = mastodon_as("alice")
    assert [e.shortcode for e in alice.custom_emojis()] == ["blobcat"]
    posted = alice.status_post("hello :blobcat:")
    assert [e.shortcode for e in posted.emojis] == ["blobcat"]
