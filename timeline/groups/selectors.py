"""Reading groups: one group (by id or handle), a user's standing in it, their groups,
a group's members and requests, the directory, and the group's timeline page (through
feeds' read_page, so the one rule decides what a viewer sees of it)."""

import re
from dataclasses import dataclass
from typing import Any

from accounts.records import UserProfile
from accounts.services import get_users
from socialsite.kept import keep
from socialsite.redis import Batch, PackedPipeline, Pipe, Reply, get_redis

from .. import keys
from ..feeds.selectors import Page, posted_page, users_page
from ..follow_sets import members as member_sets
from .records import KINDS, Group, Membership

NO_SUCH_GROUP = "No such group."
# Directory pages read at most this many matches of a search (then sorted and paged).
SEARCH_MATCHES_MAX = 500
ORDERS = ("members", "newest")


class NoSuchGroup(ValueError):
    """The group asked for doesn't exist (or its id or handle can't be one)."""


def group_id_of(value: Any) -> int:
    """`value` (a URL part, a form field) as a group id; NoSuchGroup if it can't be one."""
    try:
        group_id = int(value)
    except (TypeError, ValueError):
        raise NoSuchGroup(NO_SUCH_GROUP) from None
    if group_id < 1:
        raise NoSuchGroup(NO_SUCH_GROUP)
    return group_id


def decode_group(fields: dict[str, str] | None) -> Group | None:
    """A group's hash as a Group; None for none."""
    if not fields or "handle" not in fields:
        return None
    pinned = fields.get("pinned") or ""
    return Group(
        id=int(fields["id"]),
        handle=fields["handle"],
        name=fields.get("name", ""),
        description=fields.get("description", ""),
        kind=kind if (kind := fields.get("kind", "")) in KINDS else "public",
        owner=int(fields.get("owner") or 0),
        created=float(fields.get("created") or 0),
        members=int(fields.get("members") or 0),
        avatar=fields.get("avatar", ""),
        replies=fields.get("replies", "1") == "1",
        pinned=tuple(int(i) for i in pinned.split(",") if i),
    )


def get_group(group_id: int | str) -> Group | None:
    """The group, or None if there is none: 1 round trip."""
    try:
        key = keys.group_key(group_id_of(group_id))
    except NoSuchGroup:
        return None
    return decode_group(get_redis().hgetall(key))


def group_id_for_handle(handle: str) -> int | None:
    """The id of the group called `handle` (any case), or None: 1 round trip."""
    if not isinstance(handle, str) or not handle:
        return None
    found = get_redis().hget(keys.GROUP_HANDLES, handle.lower())
    return int(found) if found else None


def group_for_handle(handle: str) -> Group | None:
    """The group called `handle` (any case), or None: 2 round trips."""
    group_id = group_id_for_handle(handle)
    return None if group_id is None else get_group(group_id)


def membership(group_id: int, uid: int | None) -> Membership:
    """How `uid` (None: a visitor) stands in the group: 1 round trip (their groups hash
    and the group's banned set)."""
    if not uid:
        return Membership(int(group_id), 0, None, False, False, False)
    batch = Batch(get_redis())
    state = member_sets.queue_state(batch, group_id, uid)
    banned = batch.zscore(keys.group_banned_key(group_id), uid)
    batch.execute()
    return _membership(
        int(group_id), int(uid), member_sets.decode_state(state.value), banned.value is not None
    )


def _membership(
    group_id: int, uid: int, state: member_sets.MemberState | None, banned: bool = False
) -> Membership:
    if state is None:
        return Membership(group_id, uid, None, False, banned, False)
    role = state.role if state.is_member else None
    return Membership(
        group_id, uid, role, state.role == member_sets.REQUESTED, banned, state.show_in_home
    )


def groups_of(uid: int) -> list[tuple[Group, Membership]]:
    """`uid`'s groups ("my groups") and their pending requests, each with its
    Membership, the latest joined first: 2 round trips."""
    conn = get_redis()
    states = member_sets.decode_groups(conn.hgetall(keys.member_groups_key(uid)))
    if not states:
        return []
    ordered = sorted(states, key=lambda group_id: -states[group_id].since)
    pipe = PackedPipeline(conn)
    hashes = pipe.for_each_key(map(keys.group_key, ordered), ("HGETALL",))
    pipe.execute()
    found = []
    for group_id, fields in zip(ordered, hashes.value, strict=True):
        group = decode_group(_as_dict(fields))
        if group is not None:
            found.append((group, _membership(group_id, int(uid), states[group_id])))
    return found


def member_groups(uid: int) -> frozenset[int]:
    """The ids of the groups `uid` is a member of: 1 round trip."""
    states = member_sets.decode_groups(get_redis().hgetall(keys.member_groups_key(uid)))
    return member_sets.member_of(states)


def members(group_id: int, *, page: int = 1, count: int = 50) -> tuple[list[UserProfile], bool]:
    """Profiles of the group's members, the latest joined first, and whether more
    follow: 2 round trips."""
    uids = member_sets.page_ids(get_redis(), group_id_of(group_id), page, count)
    return get_users([int(u) for u in uids[:count]]), len(uids) > count


def member_uids(group_id: int) -> list[int]:
    """Every member's uid, the latest joined first (for checks and tests)."""
    uids = member_sets.page_ids(get_redis(), group_id_of(group_id), 1, 10**9)
    return [int(uid) for uid in uids]


def requests(group_id: int, *, page: int = 1, count: int = 50) -> tuple[list[UserProfile], bool]:
    """Profiles of those asking to join the group, the latest first, and whether more
    follow: 2 round trips."""
    return users_page(keys.group_requests_key(group_id_of(group_id)), page, count)


def directory(
    query: str = "", *, order: str = "members", page: int = 1, count: int = 30
) -> tuple[list[Group], bool]:
    """Page `page` of the groups (every kind: a private group's name is public), the
    most members first or the newest first (`order`), those whose handle or a word of
    whose name starts with `query` if given; and whether more follow. 2 round trips."""
    if order not in ORDERS:
        raise ValueError(f"The order is one of {', '.join(ORDERS)}.")
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    conn = get_redis()
    ranked = keys.GROUPS_BY_MEMBERS if order == "members" else keys.GROUPS_BY_CREATED
    start = (page - 1) * count
    words = name_words(query)
    if not words:
        ids = conn.zrevrange(ranked, start, start + count)
    else:
        ids = _search(conn, ranked, words)[start : start + count + 1]
    pipe = PackedPipeline(conn)
    hashes = pipe.for_each_key(map(keys.group_key, ids[:count]), ("HGETALL",)) if ids else None
    pipe.execute()
    groups = [decode_group(_as_dict(fields)) for fields in (hashes.value if hashes else [])]
    return [group for group in groups if group], len(ids) > count


def _search(conn, ranked: str, words: list[str]) -> list[str]:
    """The ids of the groups matching every one of `words` by prefix, in `ranked` order."""
    matched: set[str] | None = None
    pipe = conn.pipeline(transaction=False)
    for word in words:
        pipe.zrangebylex(keys.GROUP_NAMES, f"[{word}", f"[{word}\xff", 0, SEARCH_MATCHES_MAX)
    for entries in pipe.execute():
        ids = {entry.rpartition(":")[2] for entry in entries}
        matched = ids if matched is None else matched & ids
    if not matched:
        return []
    pipe = conn.pipeline(transaction=False)
    found = sorted(matched)
    pipe.zmscore(ranked, found)
    scores = pipe.execute()[0]
    ranked_ids = [(score or 0, int(i)) for i, score in zip(found, scores, strict=True)]
    return [str(i) for _, i in sorted(ranked_ids, reverse=True)]


def name_words(text: str) -> list[str]:
    """The lowercased words of a group's handle or name (or a query) the directory's
    search matches by prefix."""
    return [word for word in re.split(r"[^\w]+", (text or "").lower()) if word][:8]


def group_page(group_id: int, viewer: int | None, *, page: int = 1, count: int = 30) -> Page:
    """Page `page` of the group's timeline, newest first, as `viewer` may see it (a
    private group's posts only its members: feeds.read_page's rule): 1 or 2 round
    trips, 3 if it shows reposts."""
    key = keys.group_timeline_key(group_id_of(group_id))
    return posted_page(key, page, count, viewer=viewer)


def timeline_ids(group_id: int) -> list[int]:
    """Every status id kept in the group's timeline, newest first (for checks and tests)."""
    key = keys.group_timeline_key(group_id_of(group_id))
    return [int(i) for i in get_redis().zrevrange(key, 0, -1)]


def _as_dict(fields: Any) -> dict:
    if isinstance(fields, list):
        return dict(zip(fields[::2], fields[1::2], strict=True))
    return fields or {}


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
                group_id = group_id_for_handle(handle)
                if group_id is None:
                    break
                keep(_ids, name, group_id, IDS_KEPT)
            batch = Batch(get_redis())
            first = queue_standing(batch, group_id, uid)
            batch.execute()
        group = decode_group(_as_dict(first.fields.value))
        if group is not None and group.handle.lower() == name:
            state = member_sets.decode_state(first.state.value) if first.state else None
            banned = first.banned is not None and first.banned.value is not None
            return group, _membership(group.id, uid or 0, state, banned)
        _ids.pop(name, None)
        group_id = first = None
    return None, membership(0, None)
