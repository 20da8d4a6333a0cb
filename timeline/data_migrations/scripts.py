"""The data migrations' Lua scripts (`lua/` beside this module), one function each: the
only way any module runs them. Each takes its keys and arguments by name, in the order
the script's header comment gives them."""

from typing import Any

from socialsite.redis import Client
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def convert_home(client: Client, *, home_key: str, ids_per_command: int) -> Any:
    """Converts a home stored as a sorted set into a list of its ids: 1 if converted."""
    return _lua.run(client, "convert_home", [home_key], [ids_per_command])


def retire_book_home(
    client: Client, *, user_key: str, home_key: str, shown_reposts_key: str, last_read: float
) -> Any:
    """Takes away a home stored the book's way and records `last_read` as its owner's
    last read: how many of its two keys it took away."""
    return _lua.run(
        client, "retire_book_home", [user_key, home_key, shown_reposts_key], [last_read]
    )


def compact_notifications(
    client: Client,
    *,
    notifications_key: str,
    mentions_key: str,
    user_key: str,
    follow_kind: str,
    seconds_below: int,
    kind_letters: list[str],
) -> Any:
    """Converts a user's notifications stored before compact members (`kind_letters`:
    kind, letter, ...): how many it converted."""
    return _lua.run(
        client,
        "compact_notifications",
        [notifications_key, mentions_key, user_key],
        [follow_kind, seconds_below, *kind_letters],
    )


def posted_in_microseconds(client: Client, *, status_key: str, microseconds_a_second: int) -> Any:
    """Gives a status stored with `posted` as text its time `t` in whole microseconds and
    drops the old fields: 1 if it converted it."""
    return _lua.run(client, "posted_in_microseconds", [status_key], [microseconds_a_second])
