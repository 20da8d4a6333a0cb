"""The notifications' Lua scripts (`lua/` beside this module), one function each: the
only way any module runs them. Each takes its keys and arguments by name, in the order
the script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def notify(
    client: Client | Pipe,
    *,
    notifications_key: str,
    mentions_key: str,
    user_key: str,
    blocks_key: str,
    blocked_by_key: str,
    mutes_key: str,
    following_key: str,
    member: str,
    score: int,
    cap: int,
    mention: bool,
    channel: str,
    recipient: int,
    notification_json: str,
    actor: int,
    followers_only: bool,
    following_buckets: int,
    groups_key: str,
    members_of: int | str = "",
) -> Any:
    """Adds a notification for its recipient unless a block or mute says no (or, with
    `followers_only`, they don't follow `actor`; with `members_of`, a private group's
    id, they aren't its member: their groups hash, `groups_key`, says): the unread
    count, or nothing."""
    return _lua.run(
        client,
        "notify",
        [
            notifications_key,
            mentions_key,
            user_key,
            blocks_key,
            blocked_by_key,
            mutes_key,
            following_key,
            groups_key,
        ],
        [
            member,
            score,
            cap,
            "1" if mention else "0",
            channel,
            recipient,
            notification_json,
            actor,
            "1" if followers_only else "0",
            following_buckets,
            members_of,
        ],
    )


def withdraw(
    client: Client | Pipe,
    *,
    notifications_key: str,
    mentions_key: str,
    user_key: str,
    member: str,
    channel: str,
    recipient: int,
) -> Any:
    """Takes back a notification: 1 if it was there, else 0."""
    return _lua.run(
        client,
        "withdraw",
        [notifications_key, mentions_key, user_key],
        [member, channel, recipient],
    )


def mark_read(
    client: Client | Pipe,
    *,
    user_key: str,
    notifications_key: str,
    read_at: int,
    channel: str,
    uid: int,
) -> Any:
    """Marks all of a user's notifications read: their unread messages count."""
    return _lua.run(client, "mark_read", [user_key, notifications_key], [read_at, channel, uid])


def clear(
    client: Client | Pipe,
    *,
    notifications_key: str,
    mentions_key: str,
    user_key: str,
    channel: str,
    recipient: int,
) -> Any:
    """Removes all of a user's notifications: how many there were."""
    return _lua.run(
        client, "clear", [notifications_key, mentions_key, user_key], [channel, recipient]
    )
