"""Direct messages carrying media: the message box's files (no JavaScript needed), shown
in the conversation with their alt text to its members; a bad file refused with nothing
sent or kept; a deleted message's files deleted with it."""

from django.core.files.uploadedfile import SimpleUploadedFile

from timeline.direct import services as direct
from timeline.media import selectors as media
from timeline.media.jobs import expire
from timeline.media.services import message_owner
from timeline.media.tests import files
from timeline.tests.pages import page_text, shows


def _picture(name="cat.jpg"):
    return SimpleUploadedFile(name, files.jpeg((500, 400)), content_type="image/jpeg")


def test_a_new_message_carries_pictures_with_their_alt_text(alice, bob):
    response = alice.client.post(
        "/messages/new/",
        {"to": "bob", "message": "look", "media": [_picture()], "media_description": ["A cat"]},
    )
    assert response.status_code == 302
    conversation = response["Location"]
    page = page_text(bob.client.get(conversation))
    assert 'alt="A cat"' in page and 'class="status-media"' in page
    assert 'width="500" height="400"' in page
    # An answer with two more.
    answer = bob.client.post(
        conversation, {"message": "mine", "media": [_picture("a.jpg"), _picture("b.jpg")]}
    )
    assert answer.status_code == 302
    assert page_text(alice.client.get(conversation)).count('class="media-link"') == 3


def test_a_bad_file_sends_nothing_and_keeps_nothing(alice, bob):
    conversation = direct.start_conversation(alice.uid, "bob", "hi")
    fake = SimpleUploadedFile("x.png", b"GIF89a not really", content_type="image/png")
    response = alice.client.post(
        f"/messages/{conversation}/", {"message": "sneaky", "media": [_picture(), fake]}
    )
    assert response.status_code == 400 and shows(response, "x.png:")
    assert "sneaky" not in [m["text"] for m in direct_messages(alice.uid, conversation)]
    assert media.user_media_ids(alice.uid) == []


def test_a_deleted_messages_files_go_with_it(alice, bob):
    response = alice.client.post(
        "/messages/new/", {"to": "bob", "message": "oops", "media": [_picture()]}
    )
    conversation = int(response["Location"].rstrip("/").rsplit("/", 1)[1])
    [message] = direct_messages(alice.uid, conversation)
    [media_id] = media.user_media_ids(alice.uid)
    # Attached to the message: the 24-hour expiry of unattached uploads leaves it.
    found = media.get_attachment(alice.uid, media_id)
    assert found.attached_to == message_owner(conversation, message["id"])
    expire({"uid": alice.uid, "id": media_id})
    assert media.user_media_ids(alice.uid) == [media_id]
    direct.delete_message(alice.uid, conversation, message["id"])
    assert media.user_media_ids(alice.uid) == []


def test_someone_elses_upload_cant_be_sent(alice, bob):
    from timeline.tests.media_helpers import uploaded

    theirs = uploaded(bob.uid)
    conversation = direct.start_conversation(alice.uid, "bob", "hi")
    try:
        direct.send_message(alice.uid, conversation, "stolen", media_ids=[theirs])
    except ValueError as error:
        assert "isn't yours" in str(error)
    else:
        raise AssertionError("sent someone else's upload")


def direct_messages(uid, conversation):
    from timeline.direct.selectors import conversation_page

    return conversation_page(uid, conversation, 1, 50).messages
