"""The timelines' Lua scripts (`lua/` beside this module), one function each: the only
way any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def add_to_timeline(
    client: Client | Pipe,
    *,
    owner_key: str,
    timeline_key: str,
    shown_reposts_key: str,
    status_id: int,
    score: float | str,
    size: int,
    repost_of: int | str | None,
    falloff: int,
    kind: str,
    once: bool = False,
) -> Any:
    """Adds a status to one home ("home") or list ("sorted") timeline unless its owner is
    gone or it is a repost of an original shown among the `falloff` newest (or, with
    `once`, a home already holds it): 1 if added."""
    return _lua.run(
        client,
        "add_to_timeline",
        [owner_key, timeline_key, shown_reposts_key],
        [status_id, score, size, repost_of or "", falloff, kind, "1" if once else ""],
    )


def deliver_once(
    client: Client | Pipe, *, home_key: str, status_id: int, size: int, trim: bool
) -> Any:
    """Pushes a status onto a home unless the home holds it already (or is full of newer
    ones), for a fan-out chunk redone after a crash: 1 if pushed."""
    return _lua.run(client, "deliver_once", [home_key], [status_id, size, "1" if trim else ""])


def fan_out_split(
    client: Client | Pipe, *, members_key: str, after: float | str, skip: int, size: int, most: int
) -> Any:
    """Where the chunks of one big fan-out start after a cursor: {more, cut score...}."""
    return _lua.run(client, "fan_out_split", [members_key], [after, skip, size, most])


def merge_home(
    client: Client | Pipe,
    *,
    user_key: str,
    following_key: str,
    home_key: str,
    uid: int,
    size: int,
    ids_per_command: int,
    following_buckets: int,
    groups: list[Any],
) -> Any:
    """Merges `groups` (flat: source uid, n, then n status ids) into a home, each only if
    its source is still followed (or is `uid`): how many ids were new to it."""
    return _lua.run(
        client,
        "merge_home",
        [user_key, following_key, home_key],
        [uid, size, ids_per_command, following_buckets, *groups],
    )


def refill_timeline(
    client: Client | Pipe,
    *,
    list_key: str,
    members_key: str,
    timeline_key: str,
    trim: tuple[Any, ...],
    groups: list[Any],
) -> Any:
    """Adds `groups` (flat: member uid, n, then n score, id pairs) of members still on the
    list to its timeline, then trims it to the ranks `trim` names: how many were new."""
    return _lua.run(
        client, "refill_timeline", [list_key, members_key, timeline_key], [*trim, *groups]
    )


def drop_home(
    client: Client | Pipe, *, user_key: str, home_key: str, shown_reposts_key: str, cutoff: float
) -> Any:
    """Drops a home unread since before `cutoff`: 1 if dropped, else 0."""
    return _lua.run(client, "drop_home", [user_key, home_key, shown_reposts_key], [cutoff])
