"""The group moderation's Lua scripts (`lua/` beside this module), one function each:
the only way any module runs them. Each takes its keys and arguments by name, in the
order the script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

from .. import keys

_lua = LuaScripts(__file__)


def set_member_role(
    client: Client | Pipe, *, uid: int, group_id: int, role: str, replaces: tuple[str, ...]
) -> Any:
    """Gives `uid` `role` in the group if they hold one of `replaces`: the role they held,
    or None (set_member_role.lua)."""
    return _lua.run(
        client,
        "set_member_role",
        [keys.member_groups_key(uid)],
        [group_id, role, " ".join(replaces)],
    )


def pin_status(
    client: Client | Pipe, *, group_id: int, status_id: int, pin: bool, most: int
) -> Any:
    """Pins (or unpins) a post of the group: ["ok", pins], ["gone"], ["not_here"] or
    ["full"] (pin_status.lua)."""
    return _lua.run(
        client,
        "pin_status",
        [keys.group_key(group_id), keys.group_timeline_key(group_id)],
        [status_id, "pin" if pin else "unpin", most],
    )


def remove_group_post(client: Client | Pipe, *, group_id: int, status_id: int) -> Any:
    """Takes a post off the group's timeline and pins: 1, or 0 if it wasn't there."""
    return _lua.run(
        client,
        "remove_group_post",
        [keys.group_key(group_id), keys.group_timeline_key(group_id)],
        [status_id],
    )


def hand_over_group(
    client: Client | Pipe, *, group_id: int, owner: int, new_owner: int, now: int
) -> Any:
    """The group's step of a hand-over: 1, or 0 if `owner` doesn't own it."""
    return _lua.run(
        client,
        "hand_over_group",
        [keys.group_key(group_id), keys.group_moderators_key(group_id)],
        [owner, new_owner, now],
    )
