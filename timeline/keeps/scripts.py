"""Keep's Lua scripts (`lua/` beside this module), one function each: the only way any
module runs them. Each takes its keys and arguments by name, in the order the script's
header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def add_capped(client: Client | Pipe, *, set_key: str, member: Any, score: float, most: int) -> Any:
    """Adds `member` to the sorted set at `set_key` unless it holds `most` already: 1;
    -1 if it was there; 0 if the set is full."""
    return _lua.run(client, "add_capped", [set_key], [member, score, most])


def add_bookmarker(
    client: Client | Pipe, *, status_key: str, bookmarkers_key: str, uid: int, at: float
) -> Any:
    """Notes `uid` among a status's bookmarkers while it exists: 1; -1 if noted already;
    0 if the status is gone."""
    return _lua.run(client, "add_bookmarker", [status_key, bookmarkers_key], [uid, at])
