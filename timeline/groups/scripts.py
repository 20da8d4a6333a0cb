"""The groups' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from django.conf import settings

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

from .. import keys

_lua = LuaScripts(__file__)


def join_group(
    client: Client | Pipe, *, group_id: int, uid: int, now: int, approve: bool, since: str
) -> Any:
    """A join's (or an approval's) step in the group's slot (join_group.lua)."""
    return _lua.run(
        client,
        "join_group",
        [
            keys.group_key(group_id),
            keys.group_members_key(group_id),
            keys.group_requests_key(group_id),
            keys.group_banned_key(group_id),
            keys.group_quiet_key(group_id),
        ],
        [uid, now, settings.FOLLOWERS_PIECE_SIZE, "approve" if approve else "join", since],
    )


def leave_group(client: Client | Pipe, *, group_id: int, uid: int, since: str) -> Any:
    """A leave's (or a withdrawn request's) step in the group's slot (leave_group.lua)."""
    return _lua.run(
        client,
        "leave_group",
        [
            keys.group_key(group_id),
            keys.group_members_key(group_id),
            keys.group_requests_key(group_id),
            keys.group_quiet_key(group_id),
        ],
        [uid, since],
    )
