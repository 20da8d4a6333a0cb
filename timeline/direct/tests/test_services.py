import json

import pytest
from django.test import override_settings

from socialsite.keys import STATUS_CHANNEL
from timeline import keys
from timeline.direct import selectors, services
from timeline.direct.services import NoSuchConversation
from timeline.notifications.selectors import unread_counts


def texts(uid: int, conversation_id: int, page: int = 1, count: int = 50) -> list[str]:
    return [
        m["text"] for m in selectors.conversation_page(uid, conversation_id, page, count).messages
    ]


def test_a_first_message_starts_a_one_to_one_conversation_and_the_next_reuses_it(alice, bob):
    first = services.start_conversation(alice.uid, "bob", "hi bob")
    again = services.start_conversation(bob.uid, "@Alice", "hi alice")
    assert again == first
    assert texts(alice.uid, first) == ["hi bob", "hi alice"]
    (conversation,) = selectors.inbox_page(bob.uid, 1, 30).conversations
    assert conversation.id == first and not conversation.is_group
    assert conversation.title_for("bob") == "@alice"


def test_a_message_is_unread_for_the_others_until_they_open_it(alice, bob, make_user):
    carol = make_user("carol")
    group = services.start_conversation(alice.uid, "bob, carol", "hello all")
    services.send_message(bob.uid, group, "hey")
    assert unread_counts(carol.uid)["messages"] == 2
    assert unread_counts(bob.uid)["messages"] == 1
    assert unread_counts(alice.uid)["messages"] == 1
    (conversation,) = selectors.inbox_page(carol.uid, 1, 30).conversations
    assert conversation.unread == 2 and conversation.last["text"] == "hey"
    assert services.mark_read(carol.uid, group) == {"notifications": 0, "messages": 0}
    assert selectors.inbox_page(carol.uid, 1, 30).conversations[0].unread == 0


def test_the_inbox_lists_conversations_by_their_last_message(alice, bob, make_user):
    make_user("carol")
    with_bob = services.start_conversation(alice.uid, "bob", "1")
    with_carol = services.start_conversation(alice.uid, "carol", "2")
    assert [c.id for c in selectors.inbox_page(alice.uid, 1, 30).conversations] == [
        with_carol,
        with_bob,
    ]
    services.send_message(bob.uid, with_bob, "3")
    page = selectors.inbox_page(alice.uid, 1, 1)
    assert [c.id for c in page.conversations] == [with_bob] and page.has_older
    assert unread_counts(alice.uid) == {"notifications": 0, "messages": 1}


def test_a_conversation_pages_back_with_the_newest_message_last(alice, bob):
    conversation = services.start_conversation(alice.uid, "bob", "m0")
    for i in range(1, 5):
        services.send_message(alice.uid, conversation, f"m{i}")
    first = selectors.conversation_page(bob.uid, conversation, 1, 2)
    assert [m["text"] for m in first.messages] == ["m3", "m4"] and first.has_older
    assert texts(bob.uid, conversation, 3, 2) == ["m0"]


def test_only_members_read_or_post(alice, bob, make_user):
    outsider = make_user("mallory")
    conversation = services.start_conversation(alice.uid, "bob", "private")
    with pytest.raises(NoSuchConversation):
        selectors.conversation_page(outsider.uid, conversation, 1, 50)
    with pytest.raises(NoSuchConversation):
        services.send_message(outsider.uid, conversation, "let me in")
    with pytest.raises(NoSuchConversation):
        selectors.conversation_page(alice.uid, conversation + 1, 1, 50)
    assert texts(bob.uid, conversation) == ["private"]


@pytest.mark.parametrize(
    ("to", "message", "error"),
    [
        ("", "hi", "Say whom to write to"),
        ("nobody, bob", "hi", "No such user: @nobody."),
        ("alice", "hi", "other than yourself"),
        ("bob", "   ", "Write a message."),
        ("bob", "x" * 1001, "at most 1,000 characters"),
        ("bob", "hidden\u200bchar", "zero"),
    ],
)
def test_bad_input_starts_nothing(alice, bob, to, message, error):
    with pytest.raises(ValueError, match=error):
        services.start_conversation(alice.uid, to, message)
    assert selectors.last_conversation_id() == 0
    assert selectors.inbox_page(bob.uid, 1, 30).conversations == []


@override_settings(CONVERSATION_MAX_MEMBERS=3)
def test_a_conversation_has_at_most_the_members_allowed(alice, make_user):
    logins = [make_user().login for _ in range(3)]
    with pytest.raises(ValueError, match="at most 3 people"):
        services.start_conversation(alice.uid, ",".join(logins), "hi")
    group = services.start_conversation(alice.uid, ",".join(logins[:2]), "hi")
    assert selectors.conversation_page(alice.uid, group, 1, 50).conversation.is_group


def test_a_member_leaves_a_group_but_not_a_one_to_one(alice, bob, make_user):
    carol = make_user("carol")
    group = services.start_conversation(alice.uid, "bob,carol", "hi")
    services.leave_conversation(carol.uid, group)
    assert selectors.inbox_page(carol.uid, 1, 30).conversations == []
    assert unread_counts(carol.uid)["messages"] == 0
    with pytest.raises(NoSuchConversation):
        services.send_message(carol.uid, group, "back?")
    services.send_message(bob.uid, group, "bye carol")
    assert unread_counts(carol.uid)["messages"] == 0
    direct = services.start_conversation(alice.uid, "bob", "just us")
    with pytest.raises(ValueError, match="Only a group"):
        services.leave_conversation(bob.uid, direct)
    assert selectors.conversation_page(alice.uid, group, 1, 50).conversation.logins == [
        "alice",
        "bob",
    ]


def test_only_its_author_deletes_a_message(alice, bob):
    conversation = services.start_conversation(alice.uid, "bob", "oops")
    message = selectors.conversation_page(alice.uid, conversation, 1, 50).messages[0]["id"]
    with pytest.raises(PermissionError):
        services.delete_message(bob.uid, conversation, message)
    services.delete_message(alice.uid, conversation, message)
    assert texts(bob.uid, conversation) == []
    assert selectors.inbox_page(bob.uid, 1, 30).conversations[0].last is None
    with pytest.raises(NoSuchConversation):
        services.delete_message(alice.uid, conversation, message)


def test_messages_never_go_on_the_public_status_channel(alice, bob, redis_conn, events):
    private = redis_conn.pubsub(ignore_subscribe_messages=True)
    private.subscribe(keys.PRIVATE_CHANNEL)
    private.get_message(timeout=1)
    everything = redis_conn.pubsub(ignore_subscribe_messages=True)
    everything.psubscribe("*")
    everything.get_message(timeout=1)
    conversation = services.start_conversation(alice.uid, "bob", "secret words")
    services.send_message(bob.uid, conversation, "more secrets")
    message = selectors.conversation_page(bob.uid, conversation, 1, 50).messages[-1]["id"]
    services.delete_message(bob.uid, conversation, message)
    services.mark_read(alice.uid, conversation)
    assert events() == []
    channels = set()
    while got := everything.get_message(timeout=0.2):
        channels.add(got["channel"])
        assert "secret" not in got["data"] or got["channel"] == keys.PRIVATE_CHANNEL
    assert channels == {keys.PRIVATE_CHANNEL} and STATUS_CHANNEL not in channels
    delivered = []
    while got := private.get_message(timeout=0.2):
        delivered.append(json.loads(got["data"]))
    first = next(e for e in delivered if e["type"] == "message" and e["to"] == [bob.uid])
    assert first["message"]["text"] == "secret words" and first["unread_messages"] == 1
    private.close()
    everything.close()


def test_a_suspended_user_sends_nothing(alice, bob, make_user):
    from accounts.services import AccountSuspended, set_suspended

    make_user("carol")
    conversation = services.start_conversation(alice.uid, "bob", "hi")
    set_suspended(alice.uid, True)
    with pytest.raises(AccountSuspended):
        services.send_message(alice.uid, conversation, "still here")
    with pytest.raises(AccountSuspended):
        services.start_conversation(alice.uid, "bob", "and here")
    with pytest.raises(AccountSuspended):
        services.start_conversation(alice.uid, "carol", "or here")
    assert texts(bob.uid, conversation) == ["hi"]
    assert selectors.last_conversation_id() == conversation
