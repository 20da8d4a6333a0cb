"""/api/v1/notifications: each notification its own, its id its time in its set
(distinct, the same on every read), pages between ids as statuses' are, filtered by
type and by actor, one read by id, dismissed one at a time or cleared, the unread count."""

import pytest

from timeline.graph.services import follow_user
from timeline.notifications import selectors, services
from timeline.posting.services import post_status
from timeline.reactions.services import like, repost
from timeline.safety.services import set_private


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


def test_notifications_page_by_ids_both_ways_with_ids_that_stay_the_same(
    alice, bob, make_user, as_alice
):
    carol = make_user("carol")
    status = post_status(alice.uid, "hello")
    like(bob.uid, status)
    follow_user(carol.uid, alice.uid)
    follow_user(bob.uid, alice.uid)
    status_code, first, response = as_alice("get", "/api/v1/notifications?limit=2")
    assert status_code == 200
    assert [(n["type"], n["account"]["username"]) for n in first] == [
        ("follow", "bob"),
        ("follow", "carol"),
    ]
    assert all(n["id"].isdigit() for n in first) and int(first[0]["id"]) > int(first[1]["id"])
    assert f'max_id={first[1]["id"]}>; rel="next"' in response["Link"]
    _, second, response = as_alice("get", f"/api/v1/notifications?limit=2&max_id={first[1]['id']}")
    assert [(n["type"], n["status"]["id"]) for n in second] == [("favourite", str(status))]
    again = as_alice("get", "/api/v1/notifications?limit=3")[1]
    assert [n["id"] for n in again] == [n["id"] for n in first + second]
    # Back up: the page right after the like, newest first.
    _, newer, _ = as_alice("get", f"/api/v1/notifications?limit=1&min_id={second[0]['id']}")
    assert [n["account"]["username"] for n in newer] == ["carol"]
    _, newest, _ = as_alice("get", f"/api/v1/notifications?since_id={second[0]['id']}")
    assert [n["account"]["username"] for n in newest] == ["bob", "carol"]


def test_a_follow_request_is_a_follow_request_notification(alice, bob, as_alice):
    set_private(alice.uid, True)
    follow_user(bob.uid, alice.uid)
    _, found, _ = as_alice("get", "/api/v1/notifications")
    assert [(n["type"], n["account"]["username"], n["group_key"]) for n in found] == [
        ("follow_request", "bob", f"follow_request-{bob.uid}")
    ]


@pytest.mark.parametrize("cursor", ["abc", "p2", "-1", "0", "1e3"])
def test_a_cursor_that_is_no_notification_id_is_422(as_alice, cursor):
    for name in ("max_id", "min_id", "since_id"):
        status_code, body, _ = as_alice("get", f"/api/v1/notifications?{name}={cursor}")
        assert status_code == 422 and name in body["error"]


def test_types_and_exclude_types_filter_as_a_clients_tabs_ask(alice, bob, make_user, as_alice):
    carol = make_user("carol")
    status = post_status(alice.uid, "hello")
    like(bob.uid, status)
    repost(carol.uid, status)
    post_status(bob.uid, "hi @alice")
    post_status(carol.uid, "yes", in_reply_to=status)
    follow_user(bob.uid, alice.uid)

    def types(query: str) -> list[str]:
        status_code, found, _ = as_alice("get", f"/api/v1/notifications?{query}")
        assert status_code == 200
        return [n["type"] for n in found]

    assert types("types[]=mention") == ["mention", "mention"]
    assert types("types[]=favourite&types[]=reblog") == ["reblog", "favourite"]
    assert types("exclude_types[]=mention&exclude_types[]=follow") == ["reblog", "favourite"]
    # A type the site never makes finds nothing asked for, changes nothing excluded.
    assert types("types[]=admin.sign_up") == []
    assert types("exclude_types[]=admin.sign_up") == types("")
    # A filter that matches little still fills its page, reading on (limit=1).
    assert types("types[]=favourite&limit=1") == ["favourite"]


def test_account_id_keeps_one_persons_notifications(alice, bob, make_user, as_alice):
    carol = make_user("carol")
    status = post_status(alice.uid, "hello")
    like(bob.uid, status)
    like(carol.uid, status)
    follow_user(bob.uid, alice.uid)
    _, found, _ = as_alice("get", f"/api/v1/notifications?account_id={bob.uid}")
    assert [(n["type"], n["account"]["id"]) for n in found] == [
        ("follow", str(bob.uid)),
        ("favourite", str(bob.uid)),
    ]
    assert as_alice("get", "/api/v1/notifications?account_id=nobody")[0] == 404


def test_one_notification_by_its_id_and_no_one_elses(alice, bob, api_as, as_alice):
    status = post_status(alice.uid, "hello")
    like(bob.uid, status)
    (listed,) = as_alice("get", "/api/v1/notifications")[1]
    status_code, found, _ = as_alice("get", f"/api/v1/notifications/{listed['id']}")
    assert status_code == 200 and found == listed
    assert found["group_key"] == f"like-{status}"
    assert api_as(bob)("get", f"/api/v1/notifications/{listed['id']}")[0] == 404
    assert as_alice("get", "/api/v1/notifications/123")[0] == 404
    assert as_alice("get", "/api/v1/notifications/abc")[0] == 404


def test_dismissing_removes_one_and_its_unread_count(alice, bob, api_as, as_alice):
    status = post_status(alice.uid, "hello")
    like(bob.uid, status)
    follow_user(bob.uid, alice.uid)
    assert as_alice("get", "/api/v1/notifications/unread_count")[1] == {"count": 2}
    follow, liked = as_alice("get", "/api/v1/notifications")[1]
    # Someone else's is not theirs to dismiss; reading alone may not dismiss.
    assert api_as(bob)("post", f"/api/v1/notifications/{liked['id']}/dismiss")[0] == 404
    assert api_as(alice, "read")("post", f"/api/v1/notifications/{liked['id']}/dismiss")[0] == 403
    assert as_alice("post", f"/api/v1/notifications/{liked['id']}/dismiss")[:2] == (200, {})
    assert [n["id"] for n in as_alice("get", "/api/v1/notifications")[1]] == [follow["id"]]
    assert as_alice("get", "/api/v1/notifications/unread_count")[1] == {"count": 1}
    assert selectors.unread_counts(alice.uid)["notifications"] == 1
    assert as_alice("post", f"/api/v1/notifications/{liked['id']}/dismiss")[0] == 404


def test_clear_removes_them_all_and_the_unread_count(alice, bob, as_alice):
    status = post_status(alice.uid, "hello @alice")
    like(bob.uid, status)
    post_status(bob.uid, "hi @alice")
    assert as_alice("post", "/api/v1/notifications/clear")[:2] == (200, {})
    assert as_alice("get", "/api/v1/notifications")[1] == []
    assert as_alice("get", "/api/v1/notifications?types[]=mention")[1] == []
    assert as_alice("get", "/api/v1/notifications/unread_count")[1] == {"count": 0}
    assert selectors.unread_counts(alice.uid)["notifications"] == 0
    # New ones come as before.
    like(bob.uid, post_status(alice.uid, "again"))
    assert len(as_alice("get", "/api/v1/notifications")[1]) == 1


def test_the_unread_count_is_what_came_since_the_page_was_opened(alice, bob, as_alice):
    like(bob.uid, post_status(alice.uid, "one"))
    like(bob.uid, post_status(alice.uid, "two"))
    assert as_alice("get", "/api/v1/notifications/unread_count?limit=1")[1] == {"count": 1}
    services.mark_read(alice.uid)
    assert as_alice("get", "/api/v1/notifications/unread_count")[1] == {"count": 0}
    follow_user(bob.uid, alice.uid)
    assert as_alice("get", "/api/v1/notifications/unread_count")[1] == {"count": 1}
    status_code, body, _ = as_alice("get", "/api/v1/notifications/unread_count?limit=x")
    assert status_code == 422 and "limit" in body["error"]


def test_a_published_notification_is_shown_as_the_api_shows_it(alice, bob, redis_conn, as_alice):
    from api.views.notifications import notification_entities
    from socialsite.testing.published import published_on
    from timeline import keys
    from timeline.notifications.selectors import entry_of_event

    with published_on(redis_conn, keys.PRIVATE_CHANNEL) as published:
        like(bob.uid, post_status(alice.uid, "hello"))
        (event,) = [e for e in published() if e["type"] == "notification"]
    (listed,) = as_alice("get", "/api/v1/notifications")[1]
    assert event["notification"]["id"] == listed["id"]
    (streamed,) = notification_entities(
        "http://testserver", alice.uid, [entry_of_event(event["notification"])]
    )
    assert streamed == listed
