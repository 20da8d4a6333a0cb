"""/api/v2/notifications: the notifications grouped as the site's page groups them,
pages of groups between ids, one group and its accounts, dismissing a group, and the
unread groups' count."""

import pytest

from timeline.graph.services import follow_user
from timeline.notifications import selectors
from timeline.posting.services import post_status
from timeline.reactions.services import like, repost


@pytest.fixture
def as_alice(alice, api_as):
    return api_as(alice)


@pytest.fixture
def liked(alice, make_user):
    """alice's status liked by four fans, reposted by one, and two follows: its id."""
    status = post_status(alice.uid, "popular")
    fans = [make_user(f"fan{i}") for i in range(4)]
    for fan in fans:
        like(fan.uid, status)
    repost(fans[0].uid, status)
    follow_user(fans[1].uid, alice.uid)
    follow_user(fans[2].uid, alice.uid)
    return status


def test_groups_are_the_pages_groups_with_accounts_and_statuses_once(alice, liked, as_alice):
    status_code, body, response = as_alice("get", "/api/v2/notifications")
    assert status_code == 200
    groups = body["notification_groups"]
    page = selectors.notifications_page(alice.uid, 1, 40).notifications
    assert [g["group_key"] for g in groups] == [n.key for n in page]
    assert [(g["type"], g["notifications_count"]) for g in groups] == [
        ("follow", 2),
        ("reblog", 1),
        ("favourite", 4),
    ]
    favourites = groups[2]
    assert favourites["group_key"] == f"like-{liked}" and favourites["status_id"] == str(liked)
    usernames = {a["id"]: a["username"] for a in body["accounts"]}
    assert [usernames[i] for i in favourites["sample_account_ids"]] == [
        "fan3",
        "fan2",
        "fan1",
        "fan0",
    ]
    assert int(favourites["page_max_id"]) > int(favourites["page_min_id"])
    assert favourites["most_recent_notification_id"] == favourites["page_max_id"]
    assert [s["id"] for s in body["statuses"]] == [str(liked)]
    assert len(body["accounts"]) == len(usernames) == 4
    assert 'rel="next"' in response["Link"]


def test_a_page_of_groups_ends_where_the_next_group_starts_and_loses_none(liked, as_alice):
    seen, query = [], "limit=1"
    for _ in range(5):
        status_code, body, response = as_alice("get", f"/api/v2/notifications?{query}")
        assert status_code == 200
        if not body["notification_groups"]:
            break
        (group,) = body["notification_groups"]
        seen.append((group["type"], group["notifications_count"]))
        query = f"limit=1&max_id={group['page_min_id']}"
    assert seen == [("follow", 2), ("reblog", 1), ("favourite", 4)]


def test_types_and_grouped_types_filter_and_split_groups(liked, as_alice):
    _, body, _ = as_alice("get", "/api/v2/notifications?types[]=favourite")
    assert [g["type"] for g in body["notification_groups"]] == ["favourite"]
    _, body, _ = as_alice("get", "/api/v2/notifications?grouped_types[]=follow")
    groups = body["notification_groups"]
    assert [g["type"] for g in groups] == ["follow", "reblog"] + ["favourite"] * 4
    assert all(g["group_key"].startswith("ungrouped-") for g in groups[1:])
    # An ungrouped one is a group of its own to ask for.
    status_code, one, _ = as_alice("get", f"/api/v2/notifications/{groups[1]['group_key']}")
    assert status_code == 200
    assert [g["group_key"] for g in one["notification_groups"]] == [groups[1]["group_key"]]


def test_one_group_and_its_accounts_and_dismissing_it(alice, bob, liked, api_as, as_alice):
    key = f"like-{liked}"
    status_code, body, _ = as_alice("get", f"/api/v2/notifications/{key}")
    assert status_code == 200
    (group,) = body["notification_groups"]
    assert group["notifications_count"] == 4
    _, people, _ = as_alice("get", f"/api/v2/notifications/{key}/accounts")
    assert [p["username"] for p in people] == ["fan3", "fan2", "fan1", "fan0"]
    for missing in ("like-999999", "nothing-1", "like-x", "follow_request-0", "ungrouped-5"):
        assert as_alice("get", f"/api/v2/notifications/{missing}")[0] == 404
    assert api_as(bob)("get", f"/api/v2/notifications/{key}")[0] == 404
    assert as_alice("post", f"/api/v2/notifications/{key}/dismiss")[:2] == (200, {})
    assert as_alice("get", f"/api/v2/notifications/{key}")[0] == 404
    assert [n.key for n in selectors.notifications_page(alice.uid, 1, 40).notifications] == [
        "follow",
        f"repost-{liked}",
    ]


def test_the_unread_count_counts_groups(liked, as_alice):
    assert as_alice("get", "/api/v2/notifications/unread_count")[1] == {"count": 3}
    assert as_alice("get", "/api/v1/notifications/unread_count")[1] == {"count": 7}
    filtered = "/api/v2/notifications/unread_count?exclude_types[]=follow"
    assert as_alice("get", filtered)[1] == {"count": 2}
