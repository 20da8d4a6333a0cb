"""The pages' live timelines (/statuses/timeline.json?timeline=<kind>&...), end to end: a
real daphne process, real Redis, a real client with a logged-in session. Each carries
what its page holds, as the one rule lets its reader see it, and the deletions."""

import json

import pytest

from timeline.graph.services import approve_follower, follow_user
from timeline.lists import services as lists
from timeline.posting.services import delete_status, post_status
from timeline.reactions import services as reactions
from timeline.safety import services as safety

from .clients import refusal, subscribers

pytestmark = pytest.mark.django_db(transaction=True)


def next_event(socket, timeout: float = 10) -> dict:
    return json.loads(socket.recv(timeout=timeout))


def no_event(socket, timeout: float = 0.5) -> None:
    with pytest.raises(TimeoutError):
        socket.recv(timeout=timeout)


def page_socket(ws_stream, cookie: str, **params):
    return ws_stream("/statuses/timeline.json", params, additional_headers={"Cookie": cookie})


def test_global_carries_public_statuses_but_no_private_or_blocked_one(ws_stream, make_user):
    reader, writer, hidden, pest = (make_user(n) for n in ("dora", "walt", "priv", "pest"))
    safety.set_private(hidden.uid, True)
    follow_user(reader.uid, hidden.uid)
    approve_follower(hidden.uid, reader.uid)  # followed, but global shows no private status
    safety.block(pest.uid, reader.uid)
    socket = page_socket(ws_stream, reader.cookie, timeline="global")
    post_status(hidden.uid, "private words")
    post_status(pest.uid, "from a blocker")
    shown = post_status(writer.uid, "public words")
    assert next_event(socket)["id"] == shown
    reactions.repost(writer.uid, shown)  # global keeps no repost
    reactions.undo_repost(writer.uid, shown)
    delete_status(writer.uid, shown)
    assert next_event(socket) == {"id": shown, "deleted": True}
    no_event(socket)


def test_a_profile_carries_a_private_accounts_statuses_to_its_followers_only(ws_stream, make_user):
    follower, stranger, author = make_user("dora"), make_user("eve"), make_user("priv")
    safety.set_private(author.uid, True)
    follow_user(follower.uid, author.uid)
    approve_follower(author.uid, follower.uid)
    theirs = page_socket(ws_stream, follower.cookie, timeline="profile", login="PRIV")
    strangers = page_socket(ws_stream, stranger.cookie, timeline="profile", login="priv")
    post_status(stranger.uid, "someone else")
    secret = post_status(author.uid, "for followers")
    event = next_event(theirs)
    assert (event["id"], event["message"]) == (secret, "for followers")
    no_event(strangers)
    public = post_status(stranger.uid, "@priv hello")  # a mention is no post of theirs
    no_event(theirs)
    assert public


def test_a_blocked_reader_gets_nothing_of_the_blocker_on_any_page(ws_stream, make_user):
    reader, blocker, friend = make_user("dora"), make_user("pest"), make_user("walt")
    sockets = [
        page_socket(ws_stream, reader.cookie, timeline="profile", login="pest"),
        page_socket(ws_stream, reader.cookie, timeline="mentions", login="dora"),
        page_socket(ws_stream, reader.cookie, timeline="tag", tag="knit"),
    ]
    safety.block(blocker.uid, reader.uid)  # while the pages are open
    post_status(blocker.uid, "#knit @dora from the blocker")
    shown = post_status(friend.uid, "#knit @dora from a friend")
    assert next_event(sockets[1])["id"] == shown
    assert next_event(sockets[2])["id"] == shown
    for socket in sockets:
        no_event(socket)


def test_a_tag_mentions_and_replies_carry_their_own(ws_stream, make_user):
    reader, writer = make_user("dora"), make_user("walt")
    tag = page_socket(ws_stream, reader.cookie, timeline="tag", tag="Knit")
    mentions = page_socket(ws_stream, reader.cookie, timeline="mentions", login="dora")
    root = post_status(writer.uid, "a question")
    replies = page_socket(ws_stream, reader.cookie, timeline="replies", status=str(root))
    post_status(writer.uid, "no tag, #knitting is another")
    tagged = post_status(writer.uid, "Socks #KNIT")
    assert next_event(tag)["id"] == tagged
    mention = post_status(writer.uid, "hi @Dora")
    assert next_event(mentions)["id"] == mention
    post_status(writer.uid, "elsewhere", in_reply_to=mention)
    reply = post_status(writer.uid, "an answer", in_reply_to=root)
    assert next_event(replies)["id"] == reply
    for socket in (tag, mentions, replies):
        no_event(socket)


def test_a_list_carries_its_members_statuses(ws_stream, make_user):
    owner, member, other = make_user("dora"), make_user("walt"), make_user("eve")
    knitters = lists.create_list(owner.uid, "Knitters", private=True)
    lists.add_member(owner.uid, knitters, member.uid)
    socket = page_socket(ws_stream, owner.cookie, timeline="list", list=str(knitters))
    post_status(other.uid, "not a member")
    mine = post_status(member.uid, "a member")
    assert next_event(socket)["id"] == mine
    last, code = refusal(ws_stream, "/statuses/timeline.json",
                         {"timeline": "list", "list": str(knitters)},
                         additional_headers={"Cookie": other.cookie})  # fmt: skip
    assert code == 4404 and "no such list" in last["error"]


@pytest.mark.parametrize(
    ("params", "session", "code", "error"),
    [
        ({}, True, 4400, "Say which timeline"),
        ({"timeline": "tag", "tag": "no spaces"}, True, 4400, "A tag is"),
        ({"timeline": "profile", "login": "nobody"}, True, 4404, "no user @nobody"),
        ({"timeline": "replies"}, True, 4400, "Say which status"),
        ({"timeline": "global"}, False, 4401, "stream key"),
        ({"timeline": "global", "identifier": "KEY"}, False, 4403, "open it logged in"),
    ],
)
def test_a_bad_timeline_socket_gets_an_error_frame_and_a_close_code(
    ws_stream, redis_conn, make_user, params, session, code, error
):
    from streaming.services import create_stream_key

    reader = make_user("dora")
    key = create_stream_key(reader.uid, "tests")
    params = {name: key if value == "KEY" else value for name, value in params.items()}
    headers = {"Cookie": reader.cookie} if session else {}
    last, close_code = refusal(
        ws_stream, "/statuses/timeline.json", params, additional_headers=headers
    )
    assert close_code == code
    assert error in last["error"]
    assert subscribers(redis_conn) == 0
