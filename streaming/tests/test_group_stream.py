"""The live group timeline's socket (/statuses/group.json?group=<handle>), end to end: a
real daphne process, real Redis, a real client with a logged-in session."""

import json

import pytest

from timeline.groups import services as groups
from timeline.posting.services import delete_status, post_status
from timeline.safety import services as safety

from .clients import refusal, subscribers

pytestmark = pytest.mark.django_db(transaction=True)


def next_event(socket, timeout: float = 10) -> dict:
    return json.loads(socket.recv(timeout=timeout))


def group_socket(ws_stream, cookie: str, handle: str):
    return ws_stream(
        "/statuses/group.json", {"group": handle}, additional_headers={"Cookie": cookie}
    )


def test_a_group_socket_carries_the_groups_posts_and_their_deletions(ws_stream, make_user):
    reader, owner, stranger = make_user("dora"), make_user("owner"), make_user("stranger")
    knits = groups.create_group(owner.uid, "knits", "Knitters")
    other = groups.create_group(stranger.uid, "other", "Other")
    socket = group_socket(ws_stream, reader.cookie, "KNITS")
    post_status(stranger.uid, "no group")
    post_status(stranger.uid, "another group", group=other)
    first = post_status(owner.uid, "first row", group=knits)
    assert next_event(socket)["id"] == first
    groups.join_group(knits, stranger.uid)
    post_status(stranger.uid, "a reply", in_reply_to=first)  # not on the group's timeline
    second = post_status(stranger.uid, "second row", group=knits)
    event = next_event(socket)
    assert (event["id"], event["message"]) == (second, "second row")
    delete_status(owner.uid, first)
    assert next_event(socket) == {"id": first, "deleted": True}


def test_a_private_groups_socket_is_its_members_alone(ws_stream, redis_conn, make_user):
    member, owner, outsider = make_user("dora"), make_user("owner"), make_user("eve")
    vault = groups.create_group(owner.uid, "vault", "Vault", kind="private")
    last, code = refusal(ws_stream, "/statuses/group.json", {"group": "vault"},
                         additional_headers={"Cookie": outsider.cookie})  # fmt: skip
    assert code == 4403 and "members" in last["error"]
    groups.join_group(vault, member.uid)  # asked only: not a member yet
    last, code = refusal(ws_stream, "/statuses/group.json", {"group": "vault"},
                         additional_headers={"Cookie": member.cookie})  # fmt: skip
    assert code == 4403
    assert subscribers(redis_conn) == 0
    socket = group_socket(ws_stream, owner.cookie, "vault")
    secret = post_status(owner.uid, "members only", group=vault)
    event = next_event(socket)
    assert (event["id"], event["message"]) == (secret, "members only")


def test_a_group_socket_hides_the_posts_of_someone_the_reader_blocks(ws_stream, make_user):
    reader, owner, pest = make_user("dora"), make_user("owner"), make_user("pest")
    knits = groups.create_group(owner.uid, "knits", "Knitters")
    groups.join_group(knits, pest.uid)
    safety.block(reader.uid, pest.uid)
    socket = group_socket(ws_stream, reader.cookie, "knits")
    post_status(pest.uid, "from the pest", group=knits)
    shown = post_status(owner.uid, "from the owner", group=knits)
    assert next_event(socket)["id"] == shown


@pytest.mark.parametrize(
    ("params", "session", "code", "error"),
    [
        ({}, True, 4400, "Say which group"),
        ({"group": "nowhere"}, True, 4404, "There is no group nowhere"),
        ({"group": "knits"}, False, 4401, "stream key"),
        ({"group": "knits", "identifier": "KEY"}, False, 4403, "open it logged in"),
    ],
)
def test_a_bad_group_socket_gets_an_error_frame_and_a_close_code(
    ws_stream, redis_conn, make_user, params, session, code, error
):
    from streaming.services import create_stream_key

    reader = make_user("dora")
    groups.create_group(reader.uid, "knits", "Knitters")
    key = create_stream_key(reader.uid, "tests")
    params = {name: key if value == "KEY" else value for name, value in params.items()}
    headers = {"Cookie": reader.cookie} if session else {}
    last, close_code = refusal(
        ws_stream, "/statuses/group.json", params, additional_headers=headers
    )
    assert close_code == code
    assert error in last["error"]
    assert subscribers(redis_conn) == 0
