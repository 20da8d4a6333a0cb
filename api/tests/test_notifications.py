"""/api/v1/notifications over compact notifications: ids made of the kind, the status and
the actor's uid (the same for the same notification on every read), accounts named by
their profiles, and pages behind the Link header's cursors."""

import pytest

from timeline.graph.services import follow_user
from timeline.posting.services import post_status
from timeline.reactions.services import like
from timeline.safety.services import set_private


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


def test_notifications_page_by_cursors_with_ids_that_stay_the_same(alice, bob, make_user, as_alice):
    carol = make_user("carol")
    status = post_status(alice.uid, "hello")
    like(bob.uid, status)
    follow_user(carol.uid, alice.uid)
    follow_user(bob.uid, alice.uid)
    status_code, first, response = as_alice("get", "/api/v1/notifications?limit=2")
    assert status_code == 200
    assert [(n["id"], n["type"], n["account"]["username"]) for n in first] == [
        (f"follow-0-{bob.uid}", "follow", "bob"),
        (f"follow-0-{carol.uid}", "follow", "carol"),
    ]
    assert 'max_id=p2>; rel="next"' in response["Link"]
    _, second, response = as_alice("get", "/api/v1/notifications?limit=2&max_id=p2")
    assert [(n["id"], n["type"], n["status"]["id"]) for n in second] == [
        (f"like-{status}-{bob.uid}", "favourite", str(status))
    ]
    assert "Link" not in response
    again = as_alice("get", "/api/v1/notifications?limit=3")[1]
    assert [n["id"] for n in again] == [n["id"] for n in first + second]
    assert [n["created_at"] for n in again] == [n["created_at"] for n in first + second]


def test_a_follow_request_is_a_follow_request_notification(alice, bob, as_alice):
    set_private(alice.uid, True)
    follow_user(bob.uid, alice.uid)
    _, found, _ = as_alice("get", "/api/v1/notifications")
    assert [(n["id"], n["type"], n["account"]["username"]) for n in found] == [
        (f"follow_request-0-{bob.uid}", "follow_request", "bob")
    ]


@pytest.mark.parametrize("cursor", ["abc", "12", "p0", "p1000000000"])
def test_a_cursor_not_from_the_link_header_is_422(as_alice, cursor):
    status_code, body, _ = as_alice("get", f"/api/v1/notifications?max_id={cursor}")
    assert status_code == 422 and "max_id" in body["error"]
