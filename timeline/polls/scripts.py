"""The polls' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def vote(
    client: Client | Pipe,
    *,
    status_key: str,
    voters_key: str,
    voter: int,
    choices: str,
    now: float,
    changes_channel: str,
) -> Any:
    """Counts `voter`'s `choices` ("0,2") in the poll of `status_key` unless they voted or
    it closed: [1, choices] counted; [0, ""] gone; [-1, their choices]; [-2, ""] closed."""
    return _lua.run(
        client, "vote", [status_key, voters_key], [voter, choices, now, changes_channel]
    )


def close_poll(client: Client | Pipe, *, status_key: str, now: float, changes_channel: str) -> Any:
    """Closes the poll of `status_key` if due: 1 closed now; 2 closed already; 0 gone;
    -1 not due yet."""
    return _lua.run(client, "close_poll", [status_key], [now, changes_channel])
