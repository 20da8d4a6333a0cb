"""The direct messages' Lua scripts (`lua/` beside this module), one function each:
the only way any module runs them. Each takes its keys and arguments by name, in the
order the script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def create_conversation(
    client: Client | Pipe,
    *,
    conversation_key: str,
    members_key: str,
    kind: str,
    created: float,
    members: list[Any],
) -> Any:
    """A new conversation's hash and members (`members`: uid, login pairs)."""
    return _lua.run(
        client, "create_conversation", [conversation_key, members_key], [kind, created, *members]
    )


def post_message(
    client: Client | Pipe,
    *,
    conversation_key: str,
    members_key: str,
    messages_key: str,
    timeline_key: str,
    uid: int,
    sent: float,
    message_json: str,
) -> Any:
    """{message id, the message as JSON, member uids}, or nothing for a non-member."""
    return _lua.run(
        client,
        "post_message",
        [conversation_key, members_key, messages_key, timeline_key],
        [uid, sent, message_json],
    )


def deliver_message(
    client: Client | Pipe,
    *,
    inbox_key: str,
    unread_key: str,
    user_key: str,
    conversation_id: int,
    sent: float,
    unread: bool,
    channel: str,
    uid: int,
    message_json: str,
) -> Any:
    """Puts a message in one member's inbox (unread for them if `unread`) and tells
    their open pages."""
    return _lua.run(
        client,
        "deliver_message",
        [inbox_key, unread_key, user_key],
        [conversation_id, sent, "1" if unread else "0", channel, uid, message_json],
    )


def mark_read(
    client: Client | Pipe,
    *,
    inbox_key: str,
    unread_key: str,
    user_key: str,
    conversation_id: int,
    left: bool,
    channel: str,
    uid: int,
) -> Any:
    """Marks a conversation read for a member (and, if they `left` it, out of their
    inbox): {unread notifications, unread messages}."""
    return _lua.run(
        client,
        "mark_read",
        [inbox_key, unread_key, user_key],
        [conversation_id, "1" if left else "0", channel, uid],
    )


def leave_conversation(
    client: Client | Pipe, *, conversation_key: str, members_key: str, uid: int
) -> Any:
    """1 if `uid` left, 0 if not a member, -1 for a one-to-one conversation."""
    return _lua.run(client, "leave_conversation", [conversation_key, members_key], [uid])


def delete_message(
    client: Client | Pipe,
    *,
    conversation_key: str,
    members_key: str,
    messages_key: str,
    timeline_key: str,
    uid: int,
    message_id: int,
    channel: str,
    conversation_id: int,
) -> Any:
    """1 if deleted, 0 if no such message (or not a member), -1 if someone else's."""
    return _lua.run(
        client,
        "delete_message",
        [conversation_key, members_key, messages_key, timeline_key],
        [uid, message_id, channel, conversation_id],
    )


def read_conversation(
    client: Client | Pipe,
    *,
    conversation_key: str,
    members_key: str,
    messages_key: str,
    timeline_key: str,
    uid: int,
    first: int,
    last: int,
) -> Any:
    """{its hash (flat), member uid, login pairs, messages as JSON}, or nothing for a
    non-member."""
    return _lua.run(
        client,
        "read_conversation",
        [conversation_key, members_key, messages_key, timeline_key],
        [uid, first, last],
    )
