"""Named lists of users (Redis in Action 8.4's exercises "Lists of users" and
"Updating lists").

A list's hash, members and timeline share the list's own slot; the owner's
index of lists and each member's "listed in" set live in those users' slots.
So adding or removing a member is two idempotent steps, like a follow: the
member's slot ("listed in", and their newest statuses), then the list's
(members, timeline). Posts reach list timelines by the fan-out path, which
walks the author's "listed in" set as it walks their followers. A list is public
or private (only its owner sees it: to anyone else it reads as no list at all,
selectors.can_see); only its owner changes it. Following a member is not required."""

import contextlib
import time
from typing import TypedDict

from django.conf import settings

from accounts.keys import user_key
from accounts.services import get_users
from socialsite import events, jobs
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import Batch, get_redis
from socialsite.text import check_display_text
from timeline.lists.records import TimelineList

from .. import keys
from ..audience.selectors import Blocked, queue_block_check
from ..feeds.refill import drop_copied_if_deleted, refill_list_job
from . import scripts
from .selectors import NO_SUCH_LIST, NoSuchList, can_see, decode_list, list_id_of

NAME_MAX_LENGTH = 25
MEMBERS_MAX = 5000  # Twitter's limit
NOT_YOURS = "That list isn't yours."
FULL = f"A list holds at most {MEMBERS_MAX} people."


def check_name(name: str) -> str:
    """The list name to store (trimmed), or ValueError saying what is wrong with it
    (control, bidi, zero-width and format characters are refused: socialsite.text)."""
    name = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(name) <= NAME_MAX_LENGTH:
        raise ValueError(f"A list name is 1 to {NAME_MAX_LENGTH} characters.")
    return check_display_text(name)


def _owned(fields: dict, uid: int) -> TimelineList:
    """The list in `fields` if `uid` owns it; NoSuchList if there is none (or it is someone
    else's private list), PermissionError if it is someone else's public list."""
    the_list = decode_list(fields)
    if the_list is None or not can_see(the_list, uid):
        raise NoSuchList(NO_SUCH_LIST)
    if the_list["owner"] != int(uid):
        raise PermissionError(NOT_YOURS)
    return the_list


def _check_owner_step(result) -> None:
    if result == 0:
        raise NoSuchList(NO_SUCH_LIST)
    if result == -1:
        raise PermissionError(NOT_YOURS)


def create_list(uid: int, name: str, *, private: bool = False) -> int:
    """Creates a list owned by `uid`, public or `private`; returns its id. ValueError for
    a bad name."""
    name = check_name(name)
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.exists(user_key(uid))
    pipe.incr(keys.LIST_ID_COUNTER)
    exists, list_id = pipe.execute()
    if not exists:
        raise ValueError("No such user.")
    now = time.time()
    # The list before its index entry: a crash in between leaves no dangling entry.
    fields = {
        "id": list_id,
        "owner": uid,
        "name": name,
        "members": 0,
        "created": now,
        "private": int(private),
    }
    pipe.hset(keys.list_key(list_id), mapping=fields)
    pipe.zadd(keys.user_lists_key(uid), {list_id: now})
    pipe.execute()
    return list_id


def rename_list(uid: int, list_id: int, name: str) -> None:
    """Renames `uid`'s list. ValueError for a bad name or no such list; PermissionError
    for someone else's list."""
    _update_list(uid, list_id, "name", check_name(name))


def set_private(uid: int, list_id: int, private: bool) -> None:
    """Makes `uid`'s list private (only they see it) or public. NoSuchList for no such
    list; PermissionError for someone else's."""
    _update_list(uid, list_id, "private", int(bool(private)))


def _update_list(uid: int, list_id, *fields) -> None:
    list_id = list_id_of(list_id)
    _check_owner_step(
        scripts.change_own_list(
            get_redis(), list_key=keys.list_key(list_id), owner=uid, fields=fields
        )
    )


def delete_list(uid: int, list_id: int) -> None:
    """Deletes `uid`'s list, its members and timeline. ValueError for no such list;
    PermissionError for someone else's."""
    list_id = list_id_of(list_id)
    conn = get_redis()
    members = scripts.change_own_list(
        conn,
        **_list_keys(list_id),
        shown_reposts_key=keys.shown_reposts_key(keys.list_timeline_key(list_id)),
        owner=uid,
    )
    if not isinstance(members, list):
        _check_owner_step(members)
    pipe = conn.pipeline(transaction=False)
    pipe.zrem(keys.user_lists_key(uid), list_id)
    for member in members:
        pipe.zrem(keys.listed_in_key(member), list_id)
    pipe.execute()


def _prepare_member_change(
    conn, uid: int, list_id, member_uid, *, adding: bool
) -> tuple[TimelineList, dict, dict, bool]:
    """Checks a membership change (1 round trip): the list (ValueError if none,
    PermissionError if not `uid`'s), owner and member as {"id", "login"} (ValueError for
    an unknown member, or when `adding` a suspended one; Blocked when adding someone
    either blocks), and whether they are on the
    list now."""
    list_id = list_id_of(list_id)
    try:
        member_uid = int(member_uid)
    except (TypeError, ValueError):
        raise ValueError("No such user.") from None
    reads = Batch(conn)
    fields = reads.hgetall(keys.list_key(list_id))
    owner_login = reads.hget(user_key(uid), "login")
    member_fields = reads.hmget(user_key(member_uid), "login", "suspended")
    member_since = reads.zscore(keys.list_members_key(list_id), member_uid)
    check = queue_block_check(reads, uid, member_uid)
    reads.execute()
    the_list = _owned(fields.value, uid)
    member_login, suspended = member_fields.value
    # A suspended user reads as gone; refusing them also keeps a purge (which suspends
    # first) from racing a new membership.
    if member_login is None or (adding and suspended == "1"):
        raise ValueError("No such user.")
    if adding and check.blocked:
        raise Blocked(f"You can't add @{member_login} to a list.")
    owner = {"id": int(uid), "login": owner_login.value}
    member = {"id": member_uid, "login": member_login}
    return the_list, owner, member, member_since.value is not None


class ListKeys(TypedDict):
    """A list's hash, members and timeline keys, named as its scripts take them."""

    list_key: str
    members_key: str
    timeline_key: str


def _list_keys(list_id: int) -> ListKeys:
    """A list's hash, members and timeline keys, named as its scripts take them."""
    return {
        "list_key": keys.list_key(list_id),
        "members_key": keys.list_members_key(list_id),
        "timeline_key": keys.list_timeline_key(list_id),
    }


def add_member(uid: int, list_id: int, member_uid: int) -> str:
    """Adds a user to `uid`'s list and copies their newest statuses into its timeline;
    returns their login. ValueError for no such list or user, a member already, or a
    full list; PermissionError for someone else's list."""
    conn = get_redis()
    the_list, owner, member = check_add_member(conn, uid, list_id, member_uid)
    do_add_member(conn, the_list, owner, member)
    return member["login"]


def check_add_member(conn, uid: int, list_id, member_uid) -> tuple[TimelineList, dict, dict]:
    """The list, owner and member of an addition `uid` may make (1 round trip), else
    ValueError or PermissionError saying why not (_prepare_member_change)."""
    the_list, owner, member, is_member = _prepare_member_change(
        conn, uid, list_id, member_uid, adding=True
    )
    if is_member:
        raise ValueError(f"{member['login']} is already on this list.")
    if the_list["members"] >= MEMBERS_MAX:
        raise ValueError(FULL)
    return the_list, owner, member


def do_add_member(conn, the_list: TimelineList, owner: dict, member: dict) -> None:
    """Puts the list in the member's "listed in" set, then the member and their newest
    statuses on the list, which publishes list_member_added (2 round trips); undoes step
    1 and raises NoSuchList or ValueError if the list was deleted or filled meanwhile."""
    list_id, now, size = the_list["id"], time.time(), settings.HOME_TIMELINE_SIZE
    pipe = conn.pipeline(transaction=False)
    pipe.zadd(keys.listed_in_key(member["id"]), {list_id: now})
    pipe.zrevrange(keys.profile_timeline_key(member["id"]), 0, size - 1, withscores=True)
    _listed, entries = pipe.execute()
    target = {"id": list_id, "name": the_list["name"]}
    event = events.activity("list_member_added", owner, member, target, now)
    pairs = [value for status_id, score in entries for value in (score, status_id)]
    steps = Batch(conn)
    added = scripts.add_list_member(
        steps,
        **_list_keys(list_id),
        owner=owner["id"],
        member=member["id"],
        added=now,
        timeline_size=size,
        most_members=MEMBERS_MAX,
        channel=STATUS_CHANNEL,
        event_json=event,
        statuses=pairs,
    )
    drop_copied_if_deleted(
        steps,
        lambda client, gone: client.zrem(keys.list_timeline_key(list_id), *gone),
        keys.profile_timeline_key(member["id"]),
        entries,
    )
    if added.value in (-1, -2):
        # The list was deleted or filled since the check: undo step 1.
        conn.zrem(keys.listed_in_key(member["id"]), list_id)
        raise NoSuchList(NO_SUCH_LIST) if added.value == -1 else ValueError(FULL)


def remove_member(uid: int, list_id: int, member_uid: int) -> str:
    """Removes a user from `uid`'s list and their statuses from its timeline, and queues
    the job that refills it from the other members; returns their login. ValueError for
    no such list or user, or someone not on it; PermissionError for someone else's list."""
    conn = get_redis()
    the_list, owner, member = check_remove_member(conn, uid, list_id, member_uid)
    if do_remove_member(conn, the_list, owner, member):
        jobs.enqueue(conn, refill_list_job(the_list["id"]))
    return member["login"]


def check_remove_member(conn, uid: int, list_id, member_uid) -> tuple[TimelineList, dict, dict]:
    """The list, owner and member of a removal `uid` may make (1 round trip), else
    ValueError or PermissionError saying why not (_prepare_member_change)."""
    the_list, owner, member, is_member = _prepare_member_change(
        conn, uid, list_id, member_uid, adding=False
    )
    if not is_member:
        raise ValueError(f"{member['login']} isn't on this list.")
    return the_list, owner, member


def do_remove_member(conn, the_list: TimelineList, owner: dict, member: dict) -> bool:
    """Takes the list out of the member's "listed in" set, then the member and their
    statuses off the list, which publishes list_member_removed (2 round trips); whether
    they were removed (False: gone meanwhile)."""
    list_id = the_list["id"]
    pipe = conn.pipeline(transaction=False)
    pipe.zrem(keys.listed_in_key(member["id"]), list_id)
    pipe.zrevrange(keys.profile_timeline_key(member["id"]), 0, settings.HOME_TIMELINE_SIZE - 1)
    _unlisted, status_ids = pipe.execute()
    target = {"id": list_id, "name": the_list["name"]}
    event = events.activity("list_member_removed", owner, member, target, time.time())
    removed = scripts.remove_list_member(
        conn,
        **_list_keys(list_id),
        owner=owner["id"],
        member=member["id"],
        channel=STATUS_CHANNEL,
        event_json=event,
        status_ids=status_ids,
    )
    return removed == 1


def leave_lists_of(member_uid: int, owner_uid: int) -> None:
    """Takes `member_uid` off every list `owner_uid` owns (a block), as the owner
    removing them would: their statuses leave those lists, which a job refills."""
    conn = get_redis()
    listed_in = conn.zrange(keys.listed_in_key(member_uid), 0, -1)
    if not listed_in:
        return
    owned = conn.zmscore(keys.user_lists_key(owner_uid), listed_in)
    for list_id, score in zip(listed_in, owned, strict=True):
        if score is not None:
            # Removed or deleted meanwhile: nothing left to do.
            with contextlib.suppress(ValueError, PermissionError):
                remove_member(owner_uid, int(list_id), member_uid)


# Deleting a user (timeline.moderation): their memberships and their own lists go in
# batches, each step idempotent, so a job redone after a crash changes nothing twice.


def leave_every_list(uid: int, *, count: int) -> bool:
    """Takes a user being deleted off the next `count` lists they are on, with their
    statuses, and queues their refills, as their owners removing them would; False when
    they are on none."""
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.zrange(keys.listed_in_key(uid), 0, count - 1)
    pipe.hget(user_key(uid), "login")
    # Runs before their statuses are deleted, while these ids still say what to take out.
    pipe.zrevrange(keys.profile_timeline_key(uid), 0, settings.HOME_TIMELINE_SIZE - 1)
    list_ids, login, status_ids = pipe.execute()
    if not list_ids:
        return False
    for list_id in list_ids:
        pipe.hgetall(keys.list_key(list_id))
    found = [the_list for the_list in map(decode_list, pipe.execute()) if the_list]
    owners = {owner["id"]: owner["login"] for owner in get_users([f["owner"] for f in found])}
    member, now = {"id": int(uid), "login": login}, time.time()
    for the_list in found:
        owner = {"id": the_list["owner"], "login": owners.get(the_list["owner"])}
        target = {"id": the_list["id"], "name": the_list["name"]}
        event = events.activity("list_member_removed", owner, member, target, now)
        # The script leaves the list alone unless uid is on it, so a redone batch
        # counts nothing twice; a list deleted meanwhile (-1) has nothing left to fix.
        scripts.remove_list_member(
            pipe,
            **_list_keys(the_list["id"]),
            owner=the_list["owner"],
            member=uid,
            channel=STATUS_CHANNEL,
            event_json=event,
            status_ids=status_ids,
        )
        jobs.enqueue(pipe, refill_list_job(the_list["id"]))
    # Last, so a batch cut short is found and redone.
    pipe.zrem(keys.listed_in_key(uid), *list_ids)
    pipe.execute()
    return True


def delete_lists_of(uid: int, *, count: int) -> bool:
    """Deletes the lists of a user being deleted, taking about `count` members off them;
    False when none is left. Call it until it is.

    Unlike delete_list this walks the members in batches (a list may have thousands),
    and drops the list's hash first: the list is gone for readers and for fan-out
    (add_to_timeline.lua skips a list without one) while its members are walked."""
    conn = get_redis()
    list_ids = conn.zrange(keys.user_lists_key(uid), 0, count - 1)
    for list_id in list_ids:
        count -= _delete_list_batch(conn, uid, int(list_id), count)
        if count <= 0:
            break
    return bool(list_ids)


def _delete_list_batch(conn, uid: int, list_id: int, count: int) -> int:
    """Takes up to `count` members off a deleted user's list, or, when none are left,
    deletes what remains of it. Returns how much it did (at least 1)."""
    members_key = keys.list_members_key(list_id)
    pipe = conn.pipeline(transaction=False)
    pipe.delete(keys.list_key(list_id))
    pipe.zrange(members_key, 0, count - 1)
    _dropped, members = pipe.execute()
    if members:
        for member in members:
            pipe.zrem(keys.listed_in_key(member), list_id)
        # After their "listed in" entries, so a batch cut short is found and redone.
        pipe.zrem(members_key, *members)
        pipe.execute()
        return len(members)
    timeline = keys.list_timeline_key(list_id)
    # DEL itself: a cluster's pipeline refuses delete() of several keys, however slotted.
    pipe.execute_command("DEL", members_key, timeline, keys.shown_reposts_key(timeline))
    pipe.zrem(keys.user_lists_key(uid), list_id)
    pipe.execute()
    return 1
