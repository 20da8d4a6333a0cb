"""The edits' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def edit_status(
    client: Client | Pipe,
    *,
    status_key: str,
    versions_key: str,
    editor: int,
    changes_channel: str,
    edited: int,
    versions_kept: int,
    message: str,
    spoiler_text: str | None,
    sensitive: bool | None,
) -> Any:
    """Keeps a status's version and sets its new one (a warning or sensitive flag left
    None stays as it is): its fields as they were, as a flat list; 0 if it is gone, -1 if
    someone else's, -2 a repost, -3 edited too often, -4 if nothing would change."""
    return _lua.run(
        client,
        "edit_status",
        [status_key, versions_key],
        [
            editor,
            changes_channel,
            edited,
            versions_kept,
            message,
            spoiler_text or "",
            "1" if sensitive else "",
            "" if spoiler_text is None else "1",
            "" if sensitive is None else "1",
        ],
    )
