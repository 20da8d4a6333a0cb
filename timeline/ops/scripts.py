"""The operations' Lua scripts (`lua/` beside this module), one function each: the only
way any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from collections.abc import Sequence
from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def check_counters(
    client: Client | Pipe,
    *,
    hash_key: str,
    set_keys: list[str],
    fix: bool,
    following_field: str,
    following_buckets: int,
    fields: Sequence[str],
) -> Any:
    """Checks (and with `fix`, sets) a hash's counter `fields` against the sizes of
    `set_keys`, in the same order: {field, counter, set size, ...} for each wrong one."""
    return _lua.run(
        client,
        "check_counters",
        [hash_key, *set_keys],
        ["1" if fix else "", following_field, following_buckets, *fields],
    )
