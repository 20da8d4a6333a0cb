"""The client API obeys the one rule extended to groups: a private group's post is seen
by its members alone through statuses, context, timelines (home, public, tag, account
statuses) and search, and reaches no user, public or hashtag stream but its members';
a public group's post is public."""

import json
from contextlib import ExitStack
from urllib.parse import urlencode

import pytest
from websockets.sync.client import connect

from socialsite.redis import get_redis
from timeline.follow_sets import members as member_sets
from timeline.graph.services import follow_user
from timeline.groups import services as groups
from timeline.posting.services import post_status


def admitted(group_id: int, uid: int) -> None:
    """`uid` asks to join and is approved (the two steps a moderator's approval runs)."""
    groups.join_group(group_id, uid)
    state = member_sets.decode_state(get_redis().hget(f"groups:{{{uid}}}", str(group_id)))
    groups.admit(get_redis(), group_id, uid, state, approve=True)


@pytest.fixture
def secret(alice, bob, make_user):
    """Alice's private group, bob a member; carol follows alice and isn't one."""
    carol = make_user("carol")
    group_id = groups.create_group(alice.uid, "Secret", "Secret", kind="private")
    admitted(group_id, bob.uid)
    follow_user(carol.uid, alice.uid)
    return group_id, carol


def ids_of(entities) -> list[int]:
    return [int(entity["id"]) for entity in entities]


def test_rest_reads_show_a_private_groups_post_to_members_only(alice, bob, secret, api_as):
    group_id, carol = secret
    sid = post_status(alice.uid, "#plans secret garden", group=group_id)
    public = post_status(alice.uid, "#plans open garden")
    as_bob, as_carol = api_as(bob), api_as(carol)
    assert as_bob("get", f"/api/v1/statuses/{sid}")[0] == 200
    assert as_carol("get", f"/api/v1/statuses/{sid}")[0] == 404
    assert ids_of(as_bob("get", "/api/v1/timelines/tag/plans")[1]) == [public, sid]
    assert ids_of(as_carol("get", "/api/v1/timelines/tag/plans")[1]) == [public]
    assert ids_of(as_carol("get", "/api/v1/timelines/public")[1]) == [public]
    assert ids_of(as_bob("get", "/api/v1/timelines/public")[1]) == [public]
    assert ids_of(as_bob("get", f"/api/v1/accounts/{alice.uid}/statuses")[1]) == [public, sid]
    assert ids_of(as_carol("get", f"/api/v1/accounts/{alice.uid}/statuses")[1]) == [public]
    assert ids_of(as_carol("get", "/api/v1/timelines/home")[1]) == [public]
    found = as_bob("get", "/api/v2/search", {"q": "garden", "type": "statuses"})[1]
    assert ids_of(found["statuses"]) == [public, sid]
    found = as_carol("get", "/api/v2/search", {"q": "garden", "type": "statuses"})[1]
    assert ids_of(found["statuses"]) == [public]


def test_a_reply_in_a_private_group_is_left_out_of_a_non_members_context(
    alice, bob, secret, api_as
):
    group_id, carol = secret
    root = post_status(alice.uid, "a question", group=group_id)
    reply = post_status(bob.uid, "an answer", in_reply_to=root)
    assert ids_of(api_as(bob)("get", f"/api/v1/statuses/{root}/context")[1]["descendants"]) == [
        reply
    ]
    assert api_as(carol)("get", f"/api/v1/statuses/{root}/context")[0] == 404


@pytest.mark.django_db(transaction=True)
def test_no_api_stream_carries_a_private_groups_post_to_a_non_member(
    daphne_server, alice, bob, make_user, token_for
):
    carol = make_user("carol")
    group_id = groups.create_group(alice.uid, "Secret", "Secret", kind="private")
    admitted(group_id, bob.uid)
    follow_user(carol.uid, alice.uid)
    base = daphne_server.replace("http://", "ws://") + "/api/v1/streaming?"
    streams = [{"stream": "user"}, {"stream": "public"}, {"stream": "hashtag", "tag": "plans"}]

    def open_streams(member, opened):
        token = token_for(member)["HTTP_AUTHORIZATION"].removeprefix("Bearer ")
        return [
            opened.enter_context(
                connect(base + urlencode({**stream, "access_token": token}), open_timeout=10)
            )
            for stream in streams
        ]

    with ExitStack() as opened:
        carols, bobs = open_streams(carol, opened), open_streams(bob, opened)
        sid = post_status(alice.uid, "#plans secret", group=group_id)
        marker = post_status(alice.uid, "#plans marker")
        for stream, socket in zip(streams, carols, strict=True):
            event = json.loads(socket.recv(timeout=10))
            assert (event["event"], json.loads(event["payload"])["id"]) == (
                "update",
                str(marker),
            ), stream
        # A member's user stream has it (public ones never: it is private).
        event = json.loads(bobs[0].recv(timeout=10))
        assert json.loads(event["payload"])["id"] == str(sid)
