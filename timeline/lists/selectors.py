"""Reading lists: one list, someone's lists, a list's members and its timeline."""

from socialsite.redis import get_redis

from .. import keys
from ..feeds.selectors import Page, statuses_page, users_page

NO_SUCH_LIST = "No such list."


class NoSuchList(ValueError):
    """The list asked for doesn't exist (or its id can't be one)."""


def list_id_of(value) -> int:
    """`value` (say, a URL part) as a list id; NoSuchList if it can't be one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise NoSuchList(NO_SUCH_LIST) from None


def decode_list(fields: dict) -> dict | None:
    if not fields:
        return None
    return {
        "id": int(fields["id"]),
        "owner": int(fields["owner"]),
        "name": fields["name"],
        "members": int(fields.get("members", 0)),
        "created": float(fields["created"]),
    }


def get_list(list_id) -> dict | None:
    """The list's id, owner, name, members (a count) and created, or None."""
    try:
        return decode_list(get_redis().hgetall(keys.list_key(list_id_of(list_id))))
    except ValueError:
        return None


def lists_of(uid: int) -> list[dict]:
    """The lists `uid` owns, newest first: 2 round trips."""
    conn = get_redis()
    list_ids = conn.zrevrange(keys.user_lists_key(uid), 0, -1)
    pipe = conn.pipeline(transaction=False)
    for list_id in list_ids:
        pipe.hgetall(keys.list_key(list_id))
    return [the_list for the_list in map(decode_list, pipe.execute()) if the_list]


def members_page(list_id: int, page: int = 1, count: int = 50) -> tuple[list[dict], bool]:
    """Profiles of the list's members, the latest added first, and whether more follow."""
    return users_page(keys.list_members_key(list_id_of(list_id)), page, count)


def list_timeline_page(
    list_id: int, page: int = 1, count: int = 30, viewer: int | None = None
) -> Page:
    """Statuses of the list's members, newest first."""
    key = keys.list_timeline_key(list_id_of(list_id))
    return statuses_page(key, page, count, viewer=viewer)
