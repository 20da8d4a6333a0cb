"""A group's members, kept as a user's followers are (followers.py): ordered by the time
each joined, the group's members key alone until it holds more than
FOLLOWERS_PIECE_SIZE, then in pieces of at most that many (lua/lib/pieces.lua), all in
the group's slot. So the chunked fan-out (feeds.fanout) walks a group of 100,000 members
exactly as it walks an account with 100,000 followers: queue_range, queue_walk and
chunk_starts of followers.py take the members key as they take a followers key.

Each member's own side is a field of their groups hash (keys.member_groups_key), in their
slot: group id -> "<role> <show in home: 1|0> <time joined or asked>". The time is the
member's score in the group's set, which finds their piece (as a following set's score
finds a follower's). Pages read the hash with the viewer's blocks (audience), fan-out
reads one field a member (`queue_states_of`), and a join's step in the group's slot
includes lua/lib/pieces.lua (timeline/groups/lua). Nothing else knows either layout."""

from dataclasses import dataclass
from typing import Any

from socialsite.redis import Pipe, Reply

from .. import keys
from . import followers

# Roles a member holds; "requested" marks a pending request to join a private group.
ROLES = ("owner", "moderator", "member")
REQUESTED = "requested"


@dataclass(frozen=True, slots=True)
class MemberState:
    """One user's standing in one group, as their groups hash holds it."""

    role: str  # one of ROLES, or REQUESTED
    show_in_home: bool
    since: float  # time joined (or asked): their score in the group's set

    @property
    def is_member(self) -> bool:
        return self.role in ROLES


def encode_state(role: str, show_in_home: bool, since: float | int) -> str:
    """The groups-hash value for a state (the Lua scripts of timeline/groups parse it)."""
    return f"{role} {1 if show_in_home else 0} {since}"


def decode_state(value: str | None) -> MemberState | None:
    """A groups-hash value as a MemberState; None for none (or one unreadable)."""
    if not value:
        return None
    parts = value.split()
    if len(parts) != 3:
        return None
    role, show, since = parts
    return MemberState(role, show == "1", float(since))


def queue_groups_of(pipe: Pipe, uid: int) -> Reply:
    """Queues the read of `uid`'s whole groups hash (finish it with `decode_groups`)."""
    return pipe.execute_command("HGETALL", keys.member_groups_key(uid))


def decode_groups(fields: Any) -> dict[int, MemberState]:
    """A groups hash as read (a dict, or a flat list from a raw HGETALL) as group id ->
    MemberState."""
    if isinstance(fields, list):
        fields = dict(zip(fields[::2], fields[1::2], strict=True))
    found = {}
    for group_id, value in (fields or {}).items():
        state = decode_state(value)
        if state is not None:
            found[int(group_id)] = state
    return found


def member_of(states: dict[int, MemberState]) -> frozenset[int]:
    """The groups `states` (decode_groups) make their user a member of."""
    return frozenset(group_id for group_id, state in states.items() if state.is_member)


def shown_in_home(states: dict[int, MemberState]) -> frozenset[int]:
    """The groups whose posts fan-out brings to the home of the user of `states`."""
    return frozenset(
        group_id for group_id, state in states.items() if state.is_member and state.show_in_home
    )


def queue_state(pipe: Pipe, group_id: int, uid: int) -> Reply:
    """Queues the read of `uid`'s state in one group (decode_state finishes it)."""
    return pipe.hget(keys.member_groups_key(uid), str(group_id))


def queue_states_of(pipe, uids: list, group_id: int) -> Reply | None:
    """Queues the read of each of `uids`' state in `group_id` (one HGET in each one's
    slot; a fan-out's check of a pass): None for no uids."""
    if not uids:
        return None
    return pipe.for_each_key(map(keys.member_groups_key, uids), ("HGET", str(group_id)))


def page_ids(client, group_id: int, page: int, count: int) -> list:
    """Uids of page `page` (from 1) of the group's members, newest first, and one more
    if an older page exists: 1 round trip (followers_page.lua, on the members key)."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    return followers.run_page(
        client,
        set_key=keys.group_members_key(group_id),
        offset=(page - 1) * count,
        count=count + 1,
    )


def queue_score(client, group_id: int, uid, joined_at) -> Any:
    """Queues (or runs) the read of `uid`'s join time among the group's members, looked
    for in the piece of `joined_at` (their state's `since`; "+inf": the newest piece)."""
    return _edge(client, group_id, "score", uid, joined_at)


def queue_add(client, group_id: int, uid, joined_at) -> Any:
    """Queues (or runs) putting `uid` among the group's members at `joined_at`, in its
    piece (a repair or a bulk write: the count is the caller's)."""
    return _edge(client, group_id, "add", uid, joined_at)


def queue_remove(client, group_id: int, uid, joined_at) -> Any:
    """Queues (or runs) taking `uid`, joined at `joined_at`, out of the group's members
    (the count is the caller's)."""
    return _edge(client, group_id, "remove", uid, joined_at)


def add_in_bulk(conn, group_id: int, joined: dict, role: str = "member") -> None:
    """Writes `joined` (uid -> join time) among the group's members at once, cut into
    pieces as joins one by one would have made them, and each one's state (a seed's bulk
    write: the count is the caller's). 2 round trips and a split."""
    pipe = conn.pipeline(transaction=False)
    pipe.zadd(keys.group_members_key(group_id), joined)
    for uid, since in joined.items():
        pipe.hset(keys.member_groups_key(uid), str(group_id), encode_state(role, True, since))
    pipe.execute()
    while followers.run_split(conn, set_key=keys.group_members_key(group_id), pieces=100):
        pass


def piece_starts(conn, group_id: int) -> list[str]:
    """The join times where each piece of the group's members starts, oldest first."""
    return conn.zrange(f"{keys.group_members_key(group_id)}:pieces", 0, -1)


def all_keys(conn, group_id: int) -> list[str]:
    """Every key of the group's members: the members key, its pieces and their index."""
    base = keys.group_members_key(group_id)
    starts = conn.zrange(f"{base}:pieces", 0, -1)
    return [base, *(f"{base}:{start}" for start in starts), f"{base}:pieces"]


def _edge(client, group_id: int, change: str, uid, joined_at) -> Any:
    return followers.run_edge(
        client,
        set_key=keys.group_members_key(group_id),
        change=change,
        follower=uid,
        followed_at=joined_at,
    )
