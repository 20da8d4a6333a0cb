"""The status store's Lua scripts (`lua/` beside this module), one function each: the
only way any module runs them. Each takes its keys and arguments by name, in the order
the script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def store_status(
    client: Client | Pipe,
    *,
    user_key: str,
    profile_key: str,
    home_key: str,
    status_id: int,
    posted: float,
    home_size: int,
) -> Any:
    """Records a stored status on its author's profile, `posts` count and (`home_size` >
    0) home."""
    return _lua.run(
        client, "store_status", [user_key, profile_key, home_key], [status_id, posted, home_size]
    )


def take_status(
    client: Client | Pipe, *, status_key: str, author: str, changes_channel: str
) -> Any:
    """Deletes a status hash if `author` wrote it ("" : anyone's): its fields as a flat
    list; 0 if there is no such status; -1 if someone else's."""
    return _lua.run(client, "take_status", [status_key], [author, changes_channel])


def unrecord_status(
    client: Client | Pipe, *, user_key: str, profile_key: str, home_key: str, status_id: int
) -> Any:
    """Takes a deleted status off its author's profile, home and `posts` count."""
    return _lua.run(client, "unrecord_status", [user_key, profile_key, home_key], [status_id])


def update_status(
    client: Client | Pipe, *, status_key: str, changes_channel: str, fields: list[Any]
) -> Any:
    """Sets `fields` (name, value, ...) on a status if it still exists: 1, else 0."""
    return _lua.run(client, "update_status", [status_key], [changes_channel, *fields])


def add_to_status_set(
    client: Client | Pipe,
    *,
    status_key: str,
    set_key: str,
    count_field: str,
    score: float | str,
    member: int | str,
    changes_channel: str,
) -> Any:
    """Adds `member` to one of a status's sets and its count: the new count; 0 if the
    status is gone; -1 if `member` is in the set already."""
    return _lua.run(
        client,
        "add_to_status_set",
        [status_key, set_key],
        [count_field, score, member, changes_channel],
    )


def remove_from_status_set(
    client: Client | Pipe,
    *,
    status_key: str,
    set_key: str,
    count_field: str,
    member: int | str,
    score: float | str,
    changes_channel: str,
) -> Any:
    """Takes `member` out of one of a status's sets and its count, only if its score is
    `score` ("" : any): 1 if removed, else 0."""
    return _lua.run(
        client,
        "remove_from_status_set",
        [status_key, set_key],
        [count_field, member, score, changes_channel],
    )
