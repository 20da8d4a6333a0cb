"""Media alt texts changed by an edit of their status (timeline.edits): only the status's
own attachments, only by its author, and which attachments it has stays as posted."""

import pytest

from timeline.edits import services as edits
from timeline.media import selectors, services
from timeline.media.services import MediaError
from timeline.posting import services as posting
from timeline.statuses import selectors as statuses

from . import files


def posted_with_media(uid, count=1):
    ids = [services.upload_media(uid, files.png()).id for _ in range(count)]
    return posting.post_status(uid, "With media", media_ids=ids), ids


def test_an_edit_changes_its_media_alt_text_and_focus(alice, events):
    status_id, (media_id,) = posted_with_media(alice.uid)
    events()
    edits.edit_status(
        alice.uid,
        status_id,
        "With media",
        media_attributes=[
            {"id": str(media_id), "description": "Now described", "focus": "0.5,0.5"}
        ],
    )
    found = selectors.get_attachment(alice.uid, media_id)
    assert (found.description, found.focus) == ("Now described", (0.5, 0.5))
    # Only an alt text changed: the streams are told all the same.
    (event,) = events()
    assert event["id"] == status_id and event.get("updated")


def test_an_edit_of_the_text_and_an_alt_text_together(alice):
    status_id, (one, two) = posted_with_media(alice.uid, 2)
    edits.edit_status(
        alice.uid,
        status_id,
        "New text",
        media_attributes=[{"id": two, "description": "Second"}],
        media_ids=[two, one],
    )
    assert statuses.get_status(status_id)["message"] == "New text"
    assert selectors.get_attachment(alice.uid, two).description == "Second"
    assert selectors.get_attachment(alice.uid, one).description == ""


def test_an_edit_cant_describe_another_statuses_media(alice):
    status_id, _ = posted_with_media(alice.uid)
    _, (other,) = posted_with_media(alice.uid)
    loose = services.upload_media(alice.uid, files.png()).id
    for media_id in (other, loose):
        with pytest.raises(MediaError, match="not one of this status's"):
            edits.edit_status(
                alice.uid,
                status_id,
                "Changed",
                media_attributes=[{"id": media_id, "description": "x"}],
            )
    assert statuses.get_status(status_id)["message"] == "With media"


def test_an_edit_doesnt_change_which_media_a_status_has(alice):
    status_id, (media_id,) = posted_with_media(alice.uid)
    extra = services.upload_media(alice.uid, files.png()).id
    with pytest.raises(MediaError, match="not which media"):
        edits.edit_status(alice.uid, status_id, "Changed", media_ids=[media_id, extra])
    assert statuses.get_status(status_id)["message"] == "With media"


def test_an_alt_text_too_long_in_an_edit_changes_nothing(alice):
    status_id, (media_id,) = posted_with_media(alice.uid)
    with pytest.raises(MediaError, match="1,500"):
        edits.edit_status(
            alice.uid,
            status_id,
            "Changed",
            media_attributes=[{"id": media_id, "description": "x" * 1501}],
        )
    assert statuses.get_status(status_id)["message"] == "With media"


def test_someone_elses_edit_describes_nothing(alice, bob):
    status_id, (media_id,) = posted_with_media(alice.uid)
    with pytest.raises(MediaError):
        edits.edit_status(
            bob.uid, status_id, "Mine", media_attributes=[{"id": media_id, "description": "x"}]
        )
    assert selectors.get_attachment(alice.uid, media_id).description == ""
