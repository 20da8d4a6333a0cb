"""Reading lists: one list, someone's lists, a list's members and its timeline."""

from dataclasses import dataclass
from typing import Any

from accounts.records import UserProfile
from socialsite.redis import PackedPipeline, Reply, get_redis

from .. import keys
from ..feeds.selectors import Page, statuses_page, users_page
from .records import TimelineList

NO_SUCH_LIST = "No such list."


class NoSuchList(ValueError):
    """The list asked for doesn't exist (or its id can't be one)."""


def list_id_of(value: Any) -> int:
    """`value` (say, a URL part) as a list id; NoSuchList if it can't be one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise NoSuchList(NO_SUCH_LIST) from None


def decode_list(fields: dict[str, str]) -> TimelineList | None:
    if not fields:
        return None
    return {
        "id": int(fields["id"]),
        "owner": int(fields["owner"]),
        "name": fields["name"],
        "members": int(fields.get("members", 0)),
        "created": float(fields["created"]),
        "private": fields.get("private") == "1",
    }


def can_see(the_list: TimelineList, viewer: int | None) -> bool:
    """Whether `viewer` (None: a visitor) may see a list, its members and its timeline:
    anyone a public list, only its owner a private one. Every page that shows a list or
    links to one asks this."""
    return not the_list["private"] or (viewer is not None and the_list["owner"] == int(viewer))


def get_list(list_id: int | str, viewer: int | None = None) -> TimelineList | None:
    """The list's id, owner, name, members (a count), created and private, or None if
    there is none or `viewer` may not see it."""
    try:
        the_list = decode_list(get_redis().hgetall(keys.list_key(list_id_of(list_id))))
    except ValueError:
        return None
    return the_list if the_list and can_see(the_list, viewer) else None


def lists_of(uid: int, viewer: int | None = None) -> list[TimelineList]:
    """The lists `uid` owns that `viewer` may see, newest first: 2 round trips."""
    return [the_list for the_list in _owned_lists(uid) if can_see(the_list, viewer)]


def lists_for_member(uid: int, member_uid: int) -> list[TimelineList]:
    """Every list `uid` owns, newest first, each with `has_member`: whether `member_uid`
    is on it (the "add to list" control on their profile). 2 round trips."""
    return _owned_lists(uid, member_uid)


def _owned_lists(uid: int, member_uid: int | None = None) -> list[TimelineList]:
    conn = get_redis()
    list_ids = conn.zrevrange(keys.user_lists_key(uid), 0, -1)
    if not list_ids:
        return []
    pipe = PackedPipeline(conn)
    read = queue_lists(pipe, list_ids, member_uid)
    pipe.execute()
    return read.lists


@dataclass(frozen=True, slots=True)
class ListsRead:
    """The reads `queue_lists` queued: the lists' hashes and, for a member, their scores
    in the member's "listed in" set (none read for no lists)."""

    hashes: Reply | None = None
    member_scores: Reply | None = None

    @property
    def lists(self) -> list[TimelineList]:
        """The lists (each with `has_member` if a member was asked about), leaving out
        any deleted meanwhile."""
        if self.hashes is None:
            return []
        found = [decode_list(fields) for fields in self.hashes.value]
        if self.member_scores is not None:
            for the_list, score in zip(found, self.member_scores.value, strict=True):
                if the_list:
                    the_list["has_member"] = score is not None
        return [the_list for the_list in found if the_list]


def queue_lists(
    pipe: PackedPipeline, list_ids: list[str], member_uid: int | None = None
) -> ListsRead:
    """Queues the reads of the lists `list_ids` (an owner's, from their lists key) and,
    with `member_uid`, whether they are on each."""
    if not list_ids:
        return ListsRead()
    hashes = pipe.for_each_key(map(keys.list_key, list_ids), ("HGETALL",))
    if member_uid is None:
        return ListsRead(hashes)
    # Their "listed in" set answers for all the lists in one command.
    return ListsRead(hashes, pipe.zmscore(keys.listed_in_key(member_uid), list_ids))


def members_page(list_id: int, page: int = 1, count: int = 50) -> tuple[list[UserProfile], bool]:
    """Profiles of the list's members, the latest added first, and whether more follow."""
    return users_page(keys.list_members_key(list_id_of(list_id)), page, count)


def list_timeline_page(
    list_id: int, page: int = 1, count: int = 30, viewer: int | None = None
) -> Page:
    """Statuses of the list's members, newest first."""
    key = keys.list_timeline_key(list_id_of(list_id))
    return statuses_page(key, page, count, viewer=viewer)


def timeline_ids(list_id: int) -> list[int]:
    """Every status id kept in the list's timeline, newest first: a deleted status's too,
    until its retraction takes it out (pages skip it meanwhile)."""
    key = keys.list_timeline_key(list_id_of(list_id))
    return [int(i) for i in get_redis().zrevrange(key, 0, -1)]


def member_uids(list_id: int) -> list[int]:
    """The uids kept as the list's members, the latest added first (members_page shows
    their profiles)."""
    key = keys.list_members_key(list_id_of(list_id))
    return [int(uid) for uid in get_redis().zrevrange(key, 0, -1)]


def listed_in(uid: int) -> list[int]:
    """The ids of the lists `uid` is a member of (those their statuses fan out to), the
    latest added first."""
    return [int(i) for i in get_redis().zrevrange(keys.listed_in_key(uid), 0, -1)]
