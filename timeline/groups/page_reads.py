"""What the group pages read beside the selectors: the pinned posts as the viewer may
see them, the roles of a page of members, the cards' group names and avatars, and the
post box's group picker."""

import time

from accounts.records import UserProfile
from socialsite.kept import keep
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..feeds.pages import queue_statuses, read_page
from ..follow_sets import members as member_sets
from ..statuses.records import Status
from . import moderation, selectors
from .records import Group


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
