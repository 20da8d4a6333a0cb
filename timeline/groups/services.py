"""Groups: making and editing one, joining (or asking to), leaving, withdrawing a request,
and each member's "show in home" switch. Posting to a group is timeline.posting's
(`post_status(uid, message, group=<id>)`, checked here by `check_group_post`).

A group's hash, members, requests, timeline and banned set share the group's own slot;
each member's standing lives in their groups hash, in their slot (follow_sets.members).
So a join is two idempotent steps, as a follow is: the group's (join_group.lua: counted
among the members, or a request recorded), then the member's. A leave goes the other
way round, the member's first: whoever is out of their own hash no longer sees a private
group's posts, whatever the group's step."""

import re
import time

from accounts.keys import user_key
from socialsite.redis import Batch, get_redis
from socialsite.text import check_display_text, with_lf

from .. import keys
from ..follow_sets import members as member_sets
from . import scripts, staff
from .records import KINDS, Group
from .selectors import (
    NO_SUCH_GROUP,
    NoSuchGroup,
    decode_group,
    group_id_of,
    name_words,
)

HANDLE_PATTERN = re.compile(r"^[A-Za-z0-9_]{3,30}$")
NAME_MAX_LENGTH = 50
DESCRIPTION_MAX_LENGTH = 500
NOT_A_MEMBER = "Only the group's members post there."
ANNOUNCEMENTS = "Only the group's moderators post in an announcement group."
NO_REPLIES = "This announcement group takes no replies."


class GroupError(ValueError):
    """A group action refused; the message is for users (a form error, or the API's
    {"error": ...})."""


def check_handle(handle: str) -> str:
    """The handle as given, or GroupError: letters, digits and _, 3 to 30 of them."""
    if not isinstance(handle, str) or not HANDLE_PATTERN.match(handle):
        raise GroupError("A group's handle is 3 to 30 letters, digits or _.")
    return handle


def check_name(name: str) -> str:
    """The name to store (trimmed), or GroupError."""
    name = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(name) <= NAME_MAX_LENGTH:
        raise GroupError(f"A group's name is 1 to {NAME_MAX_LENGTH} characters.")
    try:
        return check_display_text(name)
    except ValueError as error:
        raise GroupError(str(error)) from None


def check_description(description: str) -> str:
    """The description to store (trimmed, line breaks as LF), or GroupError."""
    description = with_lf(description.strip()) if isinstance(description, str) else ""
    if len(description) > DESCRIPTION_MAX_LENGTH:
        raise GroupError(f"A group's description is at most {DESCRIPTION_MAX_LENGTH} characters.")
    try:
        return check_display_text(description, multiline=True)
    except ValueError as error:
        raise GroupError(str(error)) from None


def create_group(
    owner: int,
    handle: str,
    name: str,
    description: str = "",
    kind: str = "public",
    *,
    replies: bool = True,
) -> int:
    """Makes a group owned (and joined) by `owner`; returns its id. GroupError for a bad
    or taken handle, a bad name, description or kind, or an unknown owner."""
    handle, name = check_handle(handle), check_name(name)
    description = check_description(description)
    if kind not in KINDS:
        raise GroupError(f"A group is one of {', '.join(KINDS)}.")
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.exists(user_key(owner))
    pipe.incr(keys.GROUP_ID_COUNTER)
    exists, group_id = pipe.execute()
    if not exists:
        raise GroupError("No such user.")
    # The handle first: a crash after it leaves a handle taken, never two groups on one.
    if not conn.hsetnx(keys.GROUP_HANDLES, handle.lower(), group_id):
        raise GroupError("That handle is taken.")
    now = int(time.time())
    fields = {
        "id": group_id,
        "handle": handle,
        "name": name,
        "description": description,
        "kind": kind,
        "owner": owner,
        "created": now,
        "members": 1,
        "avatar": "",
        "replies": int(bool(replies)),
        "pinned": "",
    }
    pipe = conn.pipeline(transaction=False)
    pipe.hset(keys.group_key(group_id), mapping=fields)
    member_sets.queue_add(pipe, group_id, owner, now)
    pipe.hset(
        keys.member_groups_key(owner), str(group_id), member_sets.encode_state("owner", True, now)
    )
    pipe.zadd(keys.GROUPS_BY_MEMBERS, {group_id: 1})
    pipe.zadd(keys.GROUPS_BY_CREATED, {group_id: now})
    queue_name_index(pipe, group_id, handle, name, add=True)
    pipe.execute()
    return group_id


def queue_name_index(pipe, group_id: int, handle: str, name: str, *, add: bool) -> None:
    entries = {f"{word}:{group_id}" for word in name_words(f"{handle} {name}")}
    if not entries:
        return
    if add:
        pipe.zadd(keys.GROUP_NAMES, dict.fromkeys(entries, 0))
    else:
        pipe.zrem(keys.GROUP_NAMES, *entries)


def _group_and_state(conn, group_id: int, uid: int) -> tuple[Group, member_sets.MemberState | None]:
    """The group and `uid`'s state in it: 1 round trip. NoSuchGroup if there is none."""
    batch = Batch(conn)
    fields = batch.hgetall(keys.group_key(group_id))
    state = member_sets.queue_state(batch, group_id, uid)
    batch.execute()
    group = decode_group(fields.value)
    if group is None:
        raise NoSuchGroup(NO_SUCH_GROUP)
    return group, member_sets.decode_state(state.value)


def edit_group(
    group_id: int,
    by: int,
    *,
    name: str | None = None,
    description: str | None = None,
    replies: bool | None = None,
) -> None:
    """Changes the group's name, description or whether an announcement group takes
    replies, as its owner or a moderator `by`. NoSuchGroup, or GroupError for bad text
    or someone who may not."""
    group_id = group_id_of(group_id)
    conn = get_redis()
    group, state = _group_and_state(conn, group_id, by)
    if state is None or state.role not in ("owner", "moderator"):
        raise GroupError("Only the group's moderators edit it.")
    changes: dict[str, object] = {}
    if name is not None:
        changes["name"] = check_name(name)
    if description is not None:
        changes["description"] = check_description(description)
    if replies is not None:
        changes["replies"] = int(bool(replies))
    if not changes:
        return
    pipe = conn.pipeline(transaction=False)
    pipe.hset(keys.group_key(group_id), mapping=changes)
    if "name" in changes:
        queue_name_index(pipe, group_id, group.handle, group.name, add=False)
        queue_name_index(pipe, group_id, group.handle, str(changes["name"]), add=True)
    pipe.execute()


def join_group(group_id: int, uid: int) -> str:
    """`uid` joins the group: "member"; or asks to, for a private group: "requested"
    (idempotent: a member stays one, a request stays pending). NoSuchGroup, or
    GroupError for a banned user."""
    group_id = group_id_of(group_id)
    conn = get_redis()
    _, state = _group_and_state(conn, group_id, uid)
    outcome = admit(conn, group_id, uid, state)
    if outcome == "requested" and (state is None or state.role != member_sets.REQUESTED):
        # A new request tells the group's owner and moderators.
        staff.notify_request(group_id, uid)
    return outcome


def admit(
    conn, group_id: int, uid: int, state: member_sets.MemberState | None, *, approve=False
) -> str:
    """The two steps of a join (or with `approve`, of a moderator's approval of a
    request) of `uid`, whose groups hash holds `state` for the group: the group's step,
    then their own. "member" or "requested"; NoSuchGroup, or GroupError if banned (or,
    approving, if there was no request). 2 round trips."""
    since = str(int(state.since)) if state is not None and state.is_member else ""
    outcome, joined, count = scripts.join_group(
        conn, group_id=group_id, uid=uid, now=int(time.time()), approve=approve, since=since
    )
    if outcome == "gone":
        raise NoSuchGroup(NO_SUCH_GROUP)
    if outcome == "banned":
        raise GroupError("You may not join this group.")
    if outcome == "no_request":
        raise GroupError("They haven't asked to join.")
    if state is not None and state.is_member and outcome == "member":
        # An owner's or moderator's state stays theirs.
        return outcome
    role = member_sets.REQUESTED if outcome == "requested" else "member"
    value = member_sets.encode_state(role, _shows(state), int(float(joined)))
    pipe = conn.pipeline(transaction=False)
    pipe.hset(keys.member_groups_key(uid), str(group_id), value)
    if role == "member":
        pipe.zadd(keys.GROUPS_BY_MEMBERS, {group_id: int(count)})
    pipe.execute()
    return outcome


def _shows(state: member_sets.MemberState | None) -> bool:
    return True if state is None else state.show_in_home


def leave_group(group_id: int, uid: int) -> None:
    """`uid` leaves the group (idempotent; a pending request goes too). NoSuchGroup, or
    GroupError for its owner, who hands the group over first."""
    group_id = group_id_of(group_id)
    conn = get_redis()
    group, state = _group_and_state(conn, group_id, uid)
    if group.owner == int(uid):
        raise GroupError("The owner can't leave: hand the group over first.")
    part(conn, group_id, uid, state)


def part(conn, group_id: int, uid: int, state: member_sets.MemberState | None) -> int:
    """The two steps that take `uid` out of a group (or withdraw their request): their
    own hash first, then the group's. 1 if they were a member; -1 for the owner (whose
    hash is left as it was). 1 round trip."""
    pipe = conn.pipeline(transaction=False)
    since = "+inf" if state is None else str(int(state.since))
    if state is not None and state.role != "owner":
        pipe.hdel(keys.member_groups_key(uid), str(group_id))
    scripts.leave_group(pipe, group_id=group_id, uid=uid, since=since)
    removed, count = pipe.execute()[-1]
    if removed == 1:
        conn.zadd(keys.GROUPS_BY_MEMBERS, {group_id: int(count)}, xx=True)
    return int(removed)


def cancel_request(group_id: int, uid: int) -> None:
    """`uid` withdraws their request to join a private group (idempotent; a member stays
    one). NoSuchGroup for no such group."""
    group_id = group_id_of(group_id)
    conn = get_redis()
    _, state = _group_and_state(conn, group_id, uid)
    if state is not None and state.is_member:
        return
    pipe = conn.pipeline(transaction=False)
    pipe.hdel(keys.member_groups_key(uid), str(group_id))
    pipe.zrem(keys.group_requests_key(group_id), uid)
    pipe.execute()
    if state is not None and state.role == member_sets.REQUESTED:
        staff.withdraw_request(group_id, uid)


def set_show_in_home(group_id: int, uid: int, on: bool) -> None:
    """Whether the group's posts come to `uid`'s home: kept in their groups hash (their
    pages and live home read it) and in the group's set of those who turned it off
    (fan-out reads it beside its walk). NoSuchGroup, or GroupError if not a member."""
    group_id = group_id_of(group_id)
    conn = get_redis()
    _, state = _group_and_state(conn, group_id, uid)
    if state is None or not state.is_member:
        raise GroupError("Only the group's members choose that.")
    value = member_sets.encode_state(state.role, bool(on), int(state.since))
    # Their own hash first (their pages, the live home), then the group's set fan-out
    # reads: a crash between leaves one more post reaching (or not) their home.
    pipe = conn.pipeline(transaction=False)
    pipe.hset(keys.member_groups_key(uid), str(group_id), value)
    if on:
        pipe.srem(keys.group_quiet_key(group_id), uid)
    else:
        pipe.sadd(keys.group_quiet_key(group_id), uid)
    pipe.execute()


def check_group_post(conn, uid: int, group_id, replying: bool) -> dict:
    """The fields a status posted by `uid` to `group_id` (a reply, if `replying`: the
    group of the status it answers) carries: its group, the group's handle and whether
    it is private. {} for a status in no group. NoSuchGroup, or GroupError if `uid` may
    not post there. 1 round trip."""
    if group_id in (None, ""):
        return {}
    group_id = group_id_of(group_id)
    group, state = _group_and_state(conn, group_id, uid)
    role = state.role if state is not None and state.is_member else None
    if role is None:
        raise GroupError(NOT_A_MEMBER)
    if group.kind == "announcement" and role == "member":
        if not replying:
            raise GroupError(ANNOUNCEMENTS)
        if not group.replies:
            raise GroupError(NO_REPLIES)
    fields = {"group": str(group_id), "group_handle": group.handle}
    if group.is_private:
        fields["group_private"] = "1"
    return fields


def add_members_in_bulk(group_id: int, joined: dict) -> None:
    """Makes `joined` (uid -> join time, none of them members yet) members at once, as
    joins one by one would have (a seed's or a bench's bulk write)."""
    conn = get_redis()
    member_sets.add_in_bulk(conn, group_id, joined)
    count = conn.hincrby(keys.group_key(group_id), "members", len(joined))
    conn.zadd(keys.GROUPS_BY_MEMBERS, {group_id: count})


def leave_every_group(uid: int, *, count: int = 200) -> bool:
    """Takes `uid` out of up to `count` of their groups and requests (a closed account's
    purge, timeline.moderation); a group they own keeps them as its owner (its owner
    hands it over or deletes it). True if more are left for another call."""
    conn = get_redis()
    states = member_sets.decode_groups(conn.hgetall(keys.member_groups_key(uid)))
    others = [(group_id, state) for group_id, state in states.items() if state.role != "owner"]
    for group_id, state in others[:count]:
        part(conn, group_id, uid, state)
    return len(others) > count
