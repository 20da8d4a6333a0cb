from django.urls import reverse

from timeline.edits.services import edit_status
from timeline.posting.services import post_status
from timeline.reactions.services import like
from timeline.statuses.selectors import get_status


def test_the_edit_form_shows_the_current_text_and_saving_it_edits(alice):
    status_id = post_status(alice.uid, "first & draft")
    page = alice.client.get(reverse("edit_status", args=[status_id]))
    assert page.status_code == 200
    assert b"first &amp; draft</textarea>" in page.content
    saved = alice.client.post(
        reverse("edit_status", args=[status_id]),
        {"message": "final text", "spoiler_text": "a warning", "sensitive": "1"},
    )
    assert saved.status_code == 302 and saved["Location"] == reverse("status", args=[status_id])
    stored = get_status(status_id)
    assert (stored["message"], stored["spoiler_text"], stored["sensitive"]) == (
        "final text",
        "a warning",
        "1",
    )


def test_a_bad_edit_shows_the_form_again_with_the_error_and_changes_nothing(alice):
    status_id = post_status(alice.uid, "steady")
    page = alice.client.post(reverse("edit_status", args=[status_id]), {"message": "  "})
    assert page.status_code == 400
    assert b"can&#39;t be empty" in page.content or b"can't be empty" in page.content
    assert get_status(status_id)["message"] == "steady"


def test_only_the_author_may_edit(alice, bob):
    status_id = post_status(alice.uid, "mine")
    assert bob.client.get(reverse("edit_status", args=[status_id])).status_code == 403
    refused = bob.client.post(reverse("edit_status", args=[status_id]), {"message": "theirs"})
    assert refused.status_code == 403
    assert get_status(status_id)["message"] == "mine"
    assert alice.client.get(reverse("edit_status", args=[10**9])).status_code == 404


def test_a_visitor_is_sent_to_log_in(client, alice):
    status_id = post_status(alice.uid, "mine")
    answer = client.post(reverse("edit_status", args=[status_id]), {"message": "x"})
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert get_status(status_id)["message"] == "mine"


def test_edits_are_rate_limited(alice, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "edits": (1, 3600)}
    status_id = post_status(alice.uid, "v0")
    path = reverse("edit_status", args=[status_id])
    assert alice.client.post(path, {"message": "v1"}).status_code == 302
    refused = alice.client.post(path, {"message": "v2"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 3500
    assert get_status(status_id)["message"] == "v1"


def test_the_card_says_edited_and_links_the_history_and_the_author_gets_an_edit_link(alice, bob):
    status_id = post_status(alice.uid, "before")
    page = bob.client.get(reverse("status", args=[status_id]))
    assert b"status-edited" not in page.content
    assert reverse("edit_status", args=[status_id]).encode() not in page.content
    own = alice.client.get(reverse("status", args=[status_id]))
    assert reverse("edit_status", args=[status_id]).encode() in own.content
    edit_status(alice.uid, status_id, "after")
    page = bob.client.get(reverse("status", args=[status_id]))
    assert b"after" in page.content and b'class="status-edited"' in page.content
    assert reverse("status_history", args=[status_id]).encode() in page.content


def test_the_history_page_lists_the_versions_newest_first(client, alice):
    status_id = post_status(alice.uid, "version one")
    edit_status(alice.uid, status_id, "version two", spoiler_text="careful")
    page = client.get(reverse("status_history", args=[status_id]))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.index("version two") < text.index("version one")
    assert "careful" in text and "Posted" in text
    assert client.get(reverse("status_history", args=[10**9])).status_code == 404


def test_the_history_of_a_private_accounts_status_is_its_followers_only(client, make_user):
    from timeline.safety import services as safety

    author = make_user("author")
    safety.set_private(author.uid, True)
    status_id = post_status(author.uid, "for followers")
    assert client.get(reverse("status_history", args=[status_id])).status_code == 404


def test_the_notifications_page_shows_the_edit(alice, bob):
    status_id = post_status(alice.uid, "liked")
    like(bob.uid, status_id)
    edit_status(alice.uid, status_id, "liked, then edited")
    page = bob.client.get(reverse("notifications"))
    assert page.status_code == 200
    assert b"notification-update" in page.content
    assert b"edited a status you interacted with" in page.content
