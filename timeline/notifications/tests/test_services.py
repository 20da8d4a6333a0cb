import pytest
from django.test import override_settings

from socialsite.testing.published import published_on
from timeline import keys
from timeline.graph import services as graph
from timeline.notifications import selectors, services
from timeline.posting import services as posting
from timeline.reactions import services as reactions


def lines(uid: int, **kwargs) -> list[str]:
    return [n.text for n in selectors.notifications_page(uid, 1, 40, **kwargs).notifications]


def unread(uid: int) -> int:
    return selectors.unread_counts(uid)["notifications"]


@pytest.fixture
def private_events(redis_conn):
    """Collects what is published on the private channel from here on."""
    with published_on(redis_conn, keys.PRIVATE_CHANNEL) as published:
        yield published


def test_a_like_a_repost_a_reply_a_mention_and_a_follow_each_notify_once(alice, bob):
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    reactions.repost(bob.uid, status)
    posting.post_status(bob.uid, "hi back", in_reply_to=status)
    posting.post_status(bob.uid, "look @alice")
    graph.follow_user(bob.uid, alice.uid)
    assert lines(alice.uid) == [
        "@bob followed you",
        "@bob mentioned you",
        "@bob replied to your status",
        "@bob reposted your status",
        "@bob liked your status",
    ]
    assert unread(alice.uid) == 5
    assert lines(bob.uid) == [] and unread(bob.uid) == 0


def test_your_own_actions_never_notify_you(alice):
    status = posting.post_status(alice.uid, "me @alice")
    reactions.like(alice.uid, status)
    posting.post_status(alice.uid, "to myself", in_reply_to=status)
    reactions.repost(alice.uid, status)
    assert lines(alice.uid) == [] and unread(alice.uid) == 0
    assert services.may_notify(alice.uid, alice.uid) is False


def test_a_reply_that_mentions_the_author_notifies_once_as_a_reply(alice, bob):
    status = posting.post_status(alice.uid, "hello")
    posting.post_status(bob.uid, "@alice yes", in_reply_to=status)
    assert lines(alice.uid) == ["@bob replied to your status"]


def test_likes_of_one_status_group_into_one_line_with_the_status_shown_once(alice, make_user):
    status = posting.post_status(alice.uid, "popular")
    fans = [make_user(f"fan{i}") for i in range(4)]
    for fan in fans:
        reactions.like(fan.uid, status)
    page = selectors.notifications_page(alice.uid, 1, 40)
    (line,) = page.notifications
    assert line.text == "@fan3 and 3 others liked your status"
    assert line.status["id"] == status and line.logins[0] == "fan3"


def test_taking_back_each_action_removes_its_notification_and_its_unread_count(alice, bob):
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    reactions.repost(bob.uid, status)
    reply = posting.post_status(bob.uid, "hi back @alice", in_reply_to=status)
    mention = posting.post_status(bob.uid, "look @alice")
    graph.follow_user(bob.uid, alice.uid)
    assert unread(alice.uid) == 5
    reactions.unlike(bob.uid, status)
    reactions.undo_repost(bob.uid, status)
    posting.delete_status(bob.uid, reply)
    posting.delete_status(bob.uid, mention)
    graph.unfollow_user(bob.uid, alice.uid)
    assert lines(alice.uid) == [] and unread(alice.uid) == 0
    assert lines(alice.uid, mentions_only=True) == []


def test_taking_back_a_read_notification_leaves_the_unread_count_alone(alice, bob, make_user):
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    services.mark_read(alice.uid)
    reactions.like(make_user().uid, status)
    reactions.unlike(bob.uid, status)
    assert unread(alice.uid) == 1


def test_the_mentions_filter_shows_mentions_and_replies_only(alice, bob):
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    posting.post_status(bob.uid, "hi", in_reply_to=status)
    posting.post_status(bob.uid, "@alice there")
    assert lines(alice.uid, mentions_only=True) == [
        "@bob mentioned you",
        "@bob replied to your status",
    ]


def test_opening_the_page_marks_all_read_and_says_so_on_the_private_channel(
    alice, bob, private_events
):
    graph.follow_user(bob.uid, alice.uid)
    (made,) = private_events()
    assert made["to"] == [alice.uid] and made["unread_notifications"] == 1
    assert made["notification"]["text"] == "@bob followed you"
    assert services.mark_read(alice.uid) == {"notifications": 0, "messages": 0}
    assert unread(alice.uid) == 0
    (read,) = private_events()
    assert read == {"to": [alice.uid], "type": "notifications_read", "unread_notifications": 0}


@override_settings(NOTIFICATIONS_KEPT=3)
def test_notifications_are_capped_and_so_is_the_unread_count(alice, make_user):
    for _ in range(5):
        graph.follow_user(make_user().uid, alice.uid)
    kept = selectors.notifications_page(alice.uid, 1, 10)
    assert [len(n.logins) for n in kept.notifications] == [3] and not kept.has_older
    assert unread(alice.uid) == 3


def test_pages_go_back_in_time_and_a_deleted_status_leaves_its_likes_out(alice, make_user):
    statuses = [posting.post_status(alice.uid, f"s{i}") for i in range(3)]
    fan = make_user("fan")
    for status in statuses:
        reactions.like(fan.uid, status)
    first = selectors.notifications_page(alice.uid, 1, 2)
    second = selectors.notifications_page(alice.uid, 2, 2)
    assert [n.status["id"] for n in first.notifications] == statuses[:0:-1]
    assert first.has_older and not second.has_older
    assert [n.status["id"] for n in second.notifications] == statuses[:1]
    posting.delete_status(alice.uid, statuses[0])
    assert [
        n.status["id"] for n in selectors.notifications_page(alice.uid, 2, 2).notifications
    ] == []


def test_a_notification_for_a_deleted_user_is_not_made(alice, bob, redis_conn):
    from accounts.keys import user_key

    redis_conn.delete(user_key(alice.uid))
    pipe = redis_conn.pipeline()
    services.queue_notify(pipe, alice.uid, services.FOLLOW, {"id": bob.uid, "login": "bob"})
    assert pipe.execute() == [None]
    assert selectors.notifications_page(alice.uid, 1, 10).notifications == []


def test_a_closed_accounts_likes_and_follows_notify_no_more(alice, bob, make_user):
    from django.core.management import call_command

    from accounts.services import close_account

    carol = make_user("carol")
    status = posting.post_status(alice.uid, "hello")
    reactions.like(bob.uid, status)
    reactions.like(carol.uid, status)
    graph.follow_user(bob.uid, alice.uid)
    posting.post_status(bob.uid, "bye @alice")
    close_account(bob.uid)
    call_command("worker", burst=True)
    assert lines(alice.uid) == ["@carol liked your status"]
    assert unread(alice.uid) == 1
