"""The link cards' Lua scripts (`lua/` beside this module), one function each: the only
way any module runs them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def set_card(
    client: Client | Pipe,
    *,
    status_key: str,
    changes_channel: str,
    card_field: str,
    edited: str,
    card: str,
) -> Any:
    """Sets (or with card="" removes) a status's card if the status exists and its
    `edited` field is still `edited`: [1, the card replaced], or [0, ""]."""
    return _lua.run(client, "set_card", [status_key], [changes_channel, card_field, edited, card])
