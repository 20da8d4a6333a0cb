"""The lists' Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def change_own_list(
    client: Client | Pipe,
    *,
    list_key: str,
    members_key: str | None = None,
    timeline_key: str | None = None,
    shown_reposts_key: str | None = None,
    owner: int,
    fields: tuple[Any, ...] = (),
) -> Any:
    """Changes a list if `owner` owns it: sets `fields` (name, value, ...), or, given its
    other keys, takes it (with its members, timeline and reposts shown). 0 for no such
    list (or someone else's private one), -1 for someone else's public list; else 1 for
    set, and for take the member uids."""
    if members_key is None:
        return _lua.run(client, "change_own_list", [list_key], [owner, "set", *fields])
    if timeline_key is None or shown_reposts_key is None:
        raise TypeError("change_own_list: taking a list needs all four of its keys.")
    return _lua.run(
        client,
        "change_own_list",
        [list_key, members_key, timeline_key, shown_reposts_key],
        [owner, "take"],
    )


def add_list_member(
    client: Client | Pipe,
    *,
    list_key: str,
    members_key: str,
    timeline_key: str,
    owner: int,
    member: int,
    added: float,
    timeline_size: int,
    most_members: int,
    channel: str,
    event_json: str,
    statuses: list[Any],
) -> Any:
    """Records a member, copies their `statuses` (score, id pairs) into the list's
    timeline and publishes `event_json`: 1 if added; 0 if already a member; -1 if the
    list is gone or someone else's; -2 if it is full."""
    return _lua.run(
        client,
        "add_list_member",
        [list_key, members_key, timeline_key],
        [owner, member, added, timeline_size, most_members, channel, event_json, *statuses],
    )


def remove_list_member(
    client: Client | Pipe,
    *,
    list_key: str,
    members_key: str,
    timeline_key: str,
    owner: int,
    member: int,
    channel: str,
    event_json: str,
    status_ids: list[Any],
) -> Any:
    """Forgets a member, takes their `status_ids` out of the list's timeline and publishes
    `event_json`: 1 if removed; 0 if not a member; -1 if the list is gone or someone
    else's."""
    return _lua.run(
        client,
        "remove_list_member",
        [list_key, members_key, timeline_key],
        [owner, member, channel, event_json, *status_ids],
    )
