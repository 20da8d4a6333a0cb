"""The streams' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them; on an asyncio client, await the result."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def take_place(
    client: Client | Pipe,
    *,
    connections_key: str,
    now: float,
    connection_id: str,
    expires: float,
    most: int,
    set_lifetime: int,
) -> Any:
    """Takes a place among a set of open streams that allows `most`: 1 taken; 0 all
    taken."""
    return _lua.run(
        client,
        "take_place",
        [connections_key],
        [now, connection_id, expires, most, set_lifetime],
    )


def open_stream(
    client: Client | Pipe,
    *,
    stream_key_key: str,
    connections_key: str,
    user_key: str,
    digest: str,
    now: float,
    connection_id: str,
    expires: float,
    most: int,
    set_lifetime: int,
) -> Any:
    """Opens a stream on a stream key: 1 opened; 0 the key has its `most` open streams;
    -1 unknown key; -2 the owner is suspended."""
    return _lua.run(
        client,
        "open_stream",
        [stream_key_key, connections_key, user_key],
        [digest, now, connection_id, expires, most, set_lifetime],
    )


def keep_streams(
    client: Client | Pipe,
    *,
    user_key: str,
    stream_keys: list[str],
    expires: float,
    set_lifetime: int,
    args: list[Any],
) -> Any:
    """Renews one owner's open streams (`stream_keys`: each stream key's hash, then its
    connections; `args`: for each, how many connections follow, then their ids): {1 if
    the owner is suspended else 0, then 1 for each stream key that still exists}."""
    return _lua.run(
        client, "keep_streams", [user_key, *stream_keys], [expires, set_lifetime, *args]
    )


def home_state(
    client: Client | Pipe,
    *,
    following_key: str,
    home_key: str,
    shown_reposts_key: str,
    count: int,
    following_buckets: int,
) -> Any:
    """A home stream's owner's state: {followed uids}, {the home's `count` newest ids},
    {original id, repost id, ...}."""
    return _lua.run(
        client,
        "home_state",
        [following_key, home_key, shown_reposts_key],
        [count, following_buckets],
    )
