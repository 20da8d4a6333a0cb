"""What the group pages read beside the selectors: the pinned posts as the viewer may
see them, the roles of a page of members, and the cards' group names and avatars."""

import time
from dataclasses import dataclass
from typing import Any

from accounts.records import UserProfile
from socialsite.kept import keep
from socialsite.redis import Batch, PackedPipeline, Pipe, Reply, get_redis

from .. import keys
from ..feeds.pages import queue_statuses, read_page
from ..follow_sets import members as member_sets
from ..statuses.records import Status
from . import moderation, selectors
from .records import Group, Membership


def pinned_statuses(group: Group, viewer: int | None) -> list[Status]:
    """The group's pinned posts, in pin order, those the one rule lets `viewer` see (none
    of a deleted one): 1 round trip (2 for a pinned repost), none for no pins."""
    if not group.pinned:
        return []
    pipe = PackedPipeline(get_redis())
    read = queue_statuses(pipe, [str(i) for i in group.pinned], len(group.pinned), viewer)
    pipe.execute()
    return read_page(read, 1).statuses


def with_roles(group: Group, people: list[UserProfile]) -> list[dict]:
    """`people` (a page of the group's members), each with its `role` in the group
    ("owner", "moderator" or "member"): 1 round trip, in each member's slot."""
    if not people:
        return []
    pipe = PackedPipeline(get_redis())
    reply = member_sets.queue_states_of(pipe, [person["id"] for person in people], group.id)
    pipe.execute()
    states = reply.value if reply is not None else []
    shown = []
    for person, value in zip(people, states, strict=True):
        state = member_sets.decode_state(value)
        role = state.role if state is not None and state.is_member else "member"
        shown.append({**person, "role": "owner" if person["id"] == group.owner else role})
    return shown


# Group names by handle, as cards show them: (when read, name). A rename shows on new
# cards within NAME_SECONDS; a rendered card keeps its name as long as it is kept.
_names: dict[str, tuple[float, str]] = {}
NAMES_KEPT = 10_000
NAME_SECONDS = 30.0


def group_name(handle: str) -> str:
    """The name of the group `handle`, for a status card ("g/<handle>" for a group gone):
    no round trip for a group this process read in the last NAME_SECONDS, else 2."""
    now = time.monotonic()
    kept = _names.get(handle)
    if kept is not None and now - kept[0] < NAME_SECONDS:
        return kept[1]
    group = selectors.group_for_handle(handle)
    name = group.name if group is not None else f"g/{handle}"
    keep(_names, handle, (now, name), NAMES_KEPT)
    return name


def group_avatar_url(group: Group, size: int = 96) -> str:
    """The URL of the group's avatar at `size` (96 or 400), or the default picture."""
    return moderation.group_avatar_url(group, size)


def group_picker(states: dict[int, member_sets.MemberState]) -> list[tuple[str, str]]:
    """The post box's group picker: the groups a reader whose groups hash holds `states`
    (read with their home page) may post to, as (handle, name), the latest joined
    first: no round trip for a reader in no group, else 1."""
    joined = sorted(
        (group_id for group_id, state in states.items() if state.is_member),
        key=lambda group_id: -states[group_id].since,
    )
    if not joined:
        return []
    pipe = PackedPipeline(get_redis())
    reply = pipe.for_each_key(map(keys.group_key, joined), ("HMGET", "handle", "name", "kind"))
    pipe.execute()
    return [
        (handle, name or handle)
        for group_id, (handle, name, kind) in zip(joined, reply.value, strict=True)
        if handle and (kind != "announcement" or states[group_id].role != "member")
    ]


# Group ids by lowercased handle, as the pages read them. A handle names one group until
# that group is deleted (then it may name a new one): a kept id whose group is gone, or
# now has another handle, is read again.
_ids: dict[str, int] = {}
IDS_KEPT = 10_000


@dataclass(frozen=True, slots=True)
class StandingRead:
    """A group's hash and a reader's standing in it, queued (queue_standing)."""

    group_id: int
    uid: int | None
    fields: Reply
    state: Reply | None
    banned: Reply | None


def kept_group_id(handle: str) -> int | None:
    """The id this process last read for the group `handle`, if any (no round trip)."""
    return _ids.get(handle.lower())


def queue_standing(pipe: Pipe, group_id: int, uid: int | None) -> StandingRead:
    """Queues the read of the group's hash and of `uid`'s standing in it (for
    group_and_membership's `first`), in the group's slot and theirs."""
    fields = pipe.hgetall(keys.group_key(group_id))
    state = member_sets.queue_state(pipe, group_id, uid) if uid else None
    banned = pipe.zscore(keys.group_banned_key(group_id), uid) if uid else None
    return StandingRead(group_id, uid, fields, state, banned)


def group_and_membership(
    handle: str, uid: int | None, *, first: StandingRead | None = None
) -> tuple[Group | None, Membership]:
    """The group called `handle` (any case; None if there is none) and how `uid` (None: a
    visitor) stands in it: 1 round trip for a handle this process has read before (none
    given `first`, those reads made already with `uid`'s), else 2."""
    name = handle.lower()
    group_id = _ids.get(name)
    for _ in range(2):
        if first is None or first.group_id != group_id or first.uid != uid:
            if group_id is None:
                group_id = selectors.group_id_for_handle(handle)
                if group_id is None:
                    break
                keep(_ids, name, group_id, IDS_KEPT)
            batch = Batch(get_redis())
            first = queue_standing(batch, group_id, uid)
            batch.execute()
        group = selectors.decode_group(_as_dict(first.fields.value))
        if group is not None and group.handle.lower() == name:
            state = member_sets.decode_state(first.state.value) if first.state else None
            banned = first.banned is not None and first.banned.value is not None
            return group, selectors._membership(group.id, uid or 0, state, banned)
        _ids.pop(name, None)
        group_id = first = None
    return None, selectors.membership(0, None)


def _as_dict(fields: Any) -> dict:
    # A packed pipeline's HGETALL replies with a flat list.
    if isinstance(fields, list):
        return dict(zip(fields[::2], fields[1::2], strict=True))
    return fields or {}
