"""Edits on the streams (timeline.edits), end to end against a real daphne: a page's live
timeline and the live home get the edited status (`"updated": true`, so the page draws
its card again), as the one rule lets the reader see it."""

import json

import pytest

from timeline.edits.services import edit_status
from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.safety import services as safety

pytestmark = pytest.mark.django_db(transaction=True)


def next_event(socket, timeout: float = 10) -> dict:
    return json.loads(socket.recv(timeout=timeout))


def no_event(socket, timeout: float = 0.5) -> None:
    with pytest.raises(TimeoutError):
        socket.recv(timeout=timeout)


def test_the_global_page_gets_an_edit_as_an_update(ws_stream, make_user):
    reader, writer = make_user("dora"), make_user("walt")
    socket = ws_stream(
        "/statuses/timeline.json",
        {"timeline": "global"},
        additional_headers={"Cookie": reader.cookie},
    )
    shown = post_status(writer.uid, "first words")
    assert next_event(socket)["id"] == shown
    edit_status(writer.uid, shown, "better words")
    event = next_event(socket)
    assert (event["id"], event["updated"], event["message"]) == (shown, True, "better words")
    no_event(socket)


def test_the_live_home_gets_the_edits_of_those_followed_but_not_of_a_blocker(ws_stream, make_user):
    reader, followed, blocker = make_user("dora"), make_user("walt"), make_user("pest")
    follow_user(reader.uid, followed.uid)
    follow_user(reader.uid, blocker.uid)
    hidden = post_status(blocker.uid, "soon blocking")
    safety.block(blocker.uid, reader.uid)
    socket = ws_stream("/statuses/home.json", {}, additional_headers={"Cookie": reader.cookie})
    shown = post_status(followed.uid, "first")
    assert next_event(socket)["id"] == shown
    edit_status(blocker.uid, hidden, "edited while blocking")
    edit_status(followed.uid, shown, "second")
    event = next_event(socket)
    assert (event["id"], event.get("updated")) == (shown, True)
    no_event(socket)
