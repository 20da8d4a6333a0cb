"""The marks' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def sync_liked(client: Client | Pipe, *, likes_key: str, liked_key: str, fix: bool) -> Any:
    """Makes one user's liked marks match their likes (or, without `fix`, only counts
    what differs): {likes with no mark, marks with no like}."""
    return _lua.run(client, "sync_liked", [likes_key, liked_key], ["1" if fix else ""])
