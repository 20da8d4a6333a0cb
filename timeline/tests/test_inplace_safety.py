"""In-place block, mute, a DM's delete and a report: each asks first where it can't be
undone, answers htmx with its control or a note, and works without JavaScript."""

from django.urls import reverse

from timeline.audience.selectors import relations
from timeline.direct import selectors as direct_selectors
from timeline.direct import services as direct
from timeline.posting import services as posting
from timeline.tests.pages import page_text, shows

HTMX = {"HTTP_HX_REQUEST": "true"}
BOX = {**HTMX, "HTTP_HX_TARGET": "profile-safety"}


def test_a_profile_asks_before_blocking(alice, bob):
    text = page_text(bob.client.get("/u/alice/"))
    block = text[text.index('<details class="confirm">') :]
    assert block.index("<summary") < block.index('action="/u/alice/block/"')
    assert "Block @alice?" in block


def test_an_in_place_block_answers_the_box_with_unblock_as_its_undo(alice, bob):
    response = bob.client.post("/u/alice/block/", **BOX)
    assert response.status_code == 200
    text = page_text(response)
    assert text.lstrip().startswith('<div class="profile-safety" id="profile-safety">')
    assert shows(response, "You block @alice.")
    assert 'hx-post="/u/alice/unblock/"' in text and 'action="/u/alice/block/"' not in text
    assert relations(bob.uid, [alice.uid])[0].blocking
    response = bob.client.post("/u/alice/unblock/", **BOX)
    assert shows(response, "You no longer block @alice.")
    assert not relations(bob.uid, [alice.uid])[0].blocking


def test_an_in_place_mute_answers_the_box_with_unmute(alice, bob):
    response = bob.client.post("/u/alice/mute/", {"duration": "3600"}, **BOX)
    assert shows(response, "You mute @alice.")
    assert 'hx-post="/u/alice/unmute/"' in page_text(response)


def test_without_javascript_a_block_posts_and_comes_back_to_the_profile(alice, bob):
    response = bob.client.post("/u/alice/block/")
    assert response.status_code == 302 and response["Location"] == "/u/alice/"
    page = bob.client.get("/u/alice/")
    assert shows(page, "You block @alice.") and shows(page, "Unblock")


def test_a_conversation_asks_before_deleting_a_message(alice, bob):
    conversation = direct.start_conversation(alice.uid, "bob", "think twice")
    text = page_text(alice.client.get(reverse("conversation", args=[conversation])))
    question = text[text.index('<details class="confirm">') :]
    assert question.index("<summary") < question.index("/delete/")
    assert "Delete this message for everyone" in question


def test_an_in_place_message_delete_answers_a_note(alice, bob):
    conversation = direct.start_conversation(alice.uid, "bob", "take it back")
    message = direct_selectors.conversation_page(alice.uid, conversation, 1, 50).messages[0]
    url = reverse("delete_message", args=[conversation, message["id"]])
    response = alice.client.post(url, **HTMX)
    assert response.status_code == 200 and page_text(response) == ""
    assert direct_selectors.conversation_page(alice.uid, conversation, 1, 50).messages == []
    # Someone else's: refused in a line, no error page.
    other = direct.start_conversation(bob.uid, "alice", "mine")
    theirs = direct_selectors.conversation_page(bob.uid, other, 1, 50).messages[0]["id"]
    response = alice.client.post(reverse("delete_message", args=[other, theirs]), **HTMX)
    assert response.status_code == 403 and "<html" not in page_text(response)


def test_reporting_a_status_twice_says_so_without_an_error_page(alice, bob):
    sid = posting.post_status(alice.uid, "reported")
    url = f"/statuses/{sid}/report/"
    assert bob.client.post(url, {"reason": "spam"}).status_code == 302
    response = bob.client.post(url, {"reason": "spam", "next": f"/statuses/{sid}/"})
    assert response.status_code == 302 and response["Location"] == f"/statuses/{sid}/"
    assert shows(bob.client.get(f"/statuses/{sid}/"), "You already reported that")


def test_an_in_place_report_answers_a_note_in_place_of_the_form(alice, bob):
    sid = posting.post_status(alice.uid, "reported in place")
    url = f"/statuses/{sid}/report/"
    response = bob.client.post(url, {"reason": "abuse"}, **HTMX)
    assert response.status_code == 200
    assert page_text(response).startswith('<p class="report-done" role="status">Thanks')
    response = bob.client.post(url, {"reason": "abuse"}, **HTMX)
    assert response.status_code == 200
    assert page_text(response).startswith('<p class="report-done" role="status">You already')
    # A bad reason is a line added to the form.
    response = bob.client.post(url, {"reason": "nope"}, **HTMX)
    assert response.status_code == 400 and response["HX-Reswap"] == "beforeend"


def test_approving_a_request_or_unblocking_from_a_list_in_place_answers_a_note(alice, bob):
    from timeline.graph import services as graph
    from timeline.safety import services as safety

    safety.set_private(alice.uid, True)
    graph.follow_user(bob.uid, alice.uid)
    response = alice.client.post("/follow-requests/bob/approve/", **HTMX)
    assert response.status_code == 200
    assert page_text(response) == '<p class="action-done" role="status">@bob now follows you.</p>'
    safety.block(alice.uid, bob.uid)
    response = alice.client.post("/u/bob/unblock/", {"next": "/blocks/"}, **HTMX)
    assert shows(response, "You no longer block @bob.") and "profile-safety" not in page_text(
        response
    )
