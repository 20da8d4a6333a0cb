"""Moderating a group: its owner and moderators answer requests to join, remove and ban
members, pin up to PINS_MOST posts and remove posts; the owner names moderators, hands
the group over and deletes it; moderators change its avatar. A request to join notifies
the owner and moderators, an approval the requester (timeline.notifications' group
kinds).

Who may act is read from the actor's own groups hash (their role) and the group's hash
(its owner), in one round trip with the target's standing. A change that touches the
group and a member is two idempotent steps, one per slot, in the order that fails safe:
whoever loses a power loses it in their own slot first. A removed post leaves the group
at once and is then deleted by a job (timeline.moderation.groups: the deletion path
takes it out of homes, lists, tags and search); a deleted group is gone at once (its
hash, handle and directory entries) and a job removes its posts and memberships, batch
by batch."""

import secrets
import time
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from accounts import avatars
from accounts.services import get_user
from socialsite import jobs
from socialsite.jinja2 import kept_static
from socialsite.redis import Batch, PackedPipeline, Reply, get_redis

from .. import keys
from ..follow_sets import members as member_sets
from ..notifications import services as notifications
from . import moderation_scripts as scripts
from . import staff
from .records import Group
from .selectors import NO_SUCH_GROUP, NoSuchGroup, decode_group, group_id_of
from .services import GroupError, admit, part, queue_name_index

MODERATORS = ("owner", "moderator")
PINS_MOST = 3
# Roles the owner gives (set_role); the owner's own changes only by a hand-over.
ROLES_GIVEN = ("moderator", "member")
NOT_A_MODERATOR = "Only the group's moderators do that."
NOT_THE_OWNER = "Only the group's owner does that."


@dataclass(frozen=True, slots=True)
class Standing:
    """A group and how the actor (`by`) and, if one is named, the member acted on
    (`uid`) stand in it."""

    group: Group
    by: member_sets.MemberState | None
    target: member_sets.MemberState | None
    banned: bool

    @property
    def by_role(self) -> str | None:
        return self.by.role if self.by is not None and self.by.is_member else None

    @property
    def target_role(self) -> str | None:
        return self.target.role if self.target is not None else None


def read_standing(group_id, by: int, uid: int | None = None) -> Standing:
    """The group, `by`'s state in it and `uid`'s (and whether `uid` is banned): 1 round
    trip. NoSuchGroup if there is none."""
    group_id = group_id_of(group_id)
    batch = Batch(get_redis())
    fields = batch.hgetall(keys.group_key(group_id))
    by_state = member_sets.queue_state(batch, group_id, by)
    target = member_sets.queue_state(batch, group_id, uid) if uid else None
    banned = batch.zscore(keys.group_banned_key(group_id), uid) if uid else None
    batch.execute()
    group = decode_group(fields.value)
    if group is None:
        raise NoSuchGroup(NO_SUCH_GROUP)
    return Standing(
        group,
        member_sets.decode_state(by_state.value),
        member_sets.decode_state(target.value) if target is not None else None,
        banned is not None and banned.value is not None,
    )


def check_moderator(group_id, by: int, uid: int | None = None) -> Standing:
    """The standing (read_standing) if `by` moderates the group (its owner or a
    moderator); NoSuchGroup, or GroupError if they don't."""
    standing = read_standing(group_id, by, uid)
    if standing.by_role not in MODERATORS:
        raise GroupError(NOT_A_MODERATOR)
    return standing


def check_owner(group_id, by: int, uid: int | None = None) -> Standing:
    """The standing if `by` owns the group; NoSuchGroup, or GroupError if not."""
    standing = read_standing(group_id, by, uid)
    if standing.group.owner != int(by):
        raise GroupError(NOT_THE_OWNER)
    return standing


def _login(uid: int) -> str:
    found = get_user(uid)
    if found is None:
        raise GroupError("No such user.")
    return found["login"]


def approve_request(group_id, by: int, uid: int) -> None:
    """A moderator `by` lets `uid` into the private group they asked to join; `uid` is
    notified. NoSuchGroup, or GroupError if `by` may not or `uid` didn't ask."""
    standing = check_moderator(group_id, by, uid)
    group = standing.group
    conn = get_redis()
    admit(conn, group.id, int(uid), standing.target, approve=True)
    actor = {"id": int(by), "login": _login(by)}
    pipe = conn.pipeline(transaction=False)
    notifications.queue_notify(
        pipe, int(uid), notifications.GROUP_APPROVAL, actor, group.id, group=group.handle
    )
    staff.queue_withdraw_request(pipe, group.id, int(uid), _login(uid))
    pipe.execute()


def reject_request(group_id, by: int, uid: int) -> None:
    """A moderator `by` turns down `uid`'s request to join (idempotent: no request is
    no change). NoSuchGroup, or GroupError if `by` may not."""
    standing = check_moderator(group_id, by, uid)
    group_id = standing.group.id
    pipe = get_redis().pipeline(transaction=False)
    # The group's record of the request first; their own hash, if it still says so.
    pipe.zrem(keys.group_requests_key(group_id), uid)
    if standing.target is not None and standing.target.role == member_sets.REQUESTED:
        pipe.hdel(keys.member_groups_key(uid), str(group_id))
    pipe.execute()
    staff.withdraw_request(group_id, int(uid))


def set_role(group_id, by: int, uid: int, role: str) -> None:
    """The owner `by` makes member `uid` a moderator, or a moderator a member again.
    NoSuchGroup, or GroupError for a bad role, someone not the owner, or `uid` not a
    member (or the owner)."""
    if role not in ROLES_GIVEN:
        raise GroupError(f"A role given is one of {', '.join(ROLES_GIVEN)}.")
    standing = check_owner(group_id, by, uid)
    if standing.target_role not in ROLES_GIVEN:
        raise GroupError("They aren't a member of the group.")
    group_id, conn = standing.group.id, get_redis()
    moderators = keys.group_moderators_key(group_id)
    if role == "moderator":
        # Listed to be notified first; the power is theirs once their own hash says so.
        conn.zadd(moderators, {uid: int(time.time())})
        done = scripts.set_member_role(
            conn, uid=uid, group_id=group_id, role=role, replaces=ROLES_GIVEN
        )
        if done is None:
            conn.zrem(moderators, uid)
    else:
        # The power goes in their own slot first.
        scripts.set_member_role(conn, uid=uid, group_id=group_id, role=role, replaces=ROLES_GIVEN)
        conn.zrem(moderators, uid)


def remove_member(group_id, by: int, uid: int, *, ban: bool = False) -> None:
    """A moderator `by` removes `uid` from the group (or withdraws their request), and
    with `ban` bars them from joining again. Only the owner removes a moderator; nobody
    removes the owner. NoSuchGroup, or GroupError if `by` may not."""
    standing = check_moderator(group_id, by, uid)
    group = standing.group
    if int(uid) == group.owner:
        raise GroupError("The owner can't be removed.")
    if standing.target_role == "moderator" and int(by) != group.owner:
        raise GroupError("Only the owner removes a moderator.")
    conn = get_redis()
    if ban:
        # Barred first: a join racing this one finds the ban.
        conn.zadd(keys.group_banned_key(group.id), {uid: int(time.time())})
    part(conn, group.id, int(uid), standing.target)
    conn.zrem(keys.group_moderators_key(group.id), uid)
    if standing.target is not None and standing.target.role == member_sets.REQUESTED:
        staff.withdraw_request(group.id, int(uid))


def unban(group_id, by: int, uid: int) -> None:
    """A moderator `by` lets `uid` join again (idempotent). NoSuchGroup, or GroupError."""
    standing = check_moderator(group_id, by)
    get_redis().zrem(keys.group_banned_key(standing.group.id), uid)


def banned(group_id: int) -> list[int]:
    """The uids barred from the group, the latest first: 1 round trip."""
    found = get_redis().zrevrange(keys.group_banned_key(group_id_of(group_id)), 0, -1)
    return [int(uid) for uid in found]


def _pin(group_id, by: int, status_id: int, *, on: bool) -> tuple[int, ...]:
    standing = check_moderator(group_id, by)
    outcome, *pins = scripts.pin_status(
        get_redis(), group_id=standing.group.id, status_id=int(status_id), pin=on, most=PINS_MOST
    )
    if outcome == "gone":
        raise NoSuchGroup(NO_SUCH_GROUP)
    if outcome == "not_here":
        raise GroupError("Only the group's own posts are pinned there.")
    if outcome == "full":
        raise GroupError(f"A group pins at most {PINS_MOST} posts: unpin one first.")
    return tuple(int(i) for i in (pins[0] if pins else "").split(",") if i)


def pin(group_id, by: int, status_id: int) -> tuple[int, ...]:
    """A moderator `by` pins a post of the group's timeline atop it (at most PINS_MOST;
    pinning it again moves it first): the pins, newest first. NoSuchGroup, or
    GroupError."""
    return _pin(group_id, by, status_id, on=True)


def unpin(group_id, by: int, status_id: int) -> tuple[int, ...]:
    """A moderator `by` unpins a post (idempotent): the pins left."""
    return _pin(group_id, by, status_id, on=False)


def remove_post(group_id, by: int, status_id: int) -> None:
    """A moderator `by` removes a post from the group: off its timeline and pins at
    once, then deleted by a job (as a site moderator deletes: out of homes, members'
    too, lists, tags and search). NoSuchGroup, or GroupError if `by` may not or it isn't
    the group's post."""
    standing = check_moderator(group_id, by)
    group_id = standing.group.id
    conn = get_redis()
    posted_in = conn.hget(keys.status_key(int(status_id)), keys.GROUP_FIELD)
    if posted_in is None or str(posted_in) != str(group_id):
        raise GroupError("That isn't a post of this group.")
    pipe = conn.pipeline(transaction=False)
    scripts.remove_group_post(pipe, group_id=group_id, status_id=int(status_id))
    jobs.enqueue(pipe, ("group_post_removal", {"group_id": group_id, "status_id": int(status_id)}))
    pipe.execute()


def transfer_ownership(group_id, by: int, uid: int) -> None:
    """The owner `by` hands the group over to member `uid`, and stays a moderator.
    NoSuchGroup, or GroupError if `by` isn't the owner or `uid` isn't a member."""
    standing = check_owner(group_id, by, uid)
    if int(uid) == int(by):
        raise GroupError("You own it already.")
    if standing.target_role not in ROLES_GIVEN:
        raise GroupError("Hand the group over to one of its members.")
    group_id, conn = standing.group.id, get_redis()
    # The new owner's power first, then the group's record, then the old owner's.
    scripts.set_member_role(conn, uid=uid, group_id=group_id, role="owner", replaces=ROLES_GIVEN)
    handed = scripts.hand_over_group(
        conn, group_id=group_id, owner=int(by), new_owner=int(uid), now=int(time.time())
    )
    if not handed:
        scripts.set_member_role(
            conn, uid=uid, group_id=group_id, role=standing.target_role, replaces=("owner",)
        )
        raise GroupError(NOT_THE_OWNER)
    scripts.set_member_role(conn, uid=by, group_id=group_id, role="moderator", replaces=("owner",))


def delete_group(group_id, by: int) -> None:
    """The owner `by` deletes the group: gone at once (its page, handle, directory
    entries; nobody joins or posts), then a job deletes its posts and memberships,
    batch by batch (timeline.moderation.groups). NoSuchGroup, or GroupError."""
    group = check_owner(group_id, by).group
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    # The job first: whatever happens next, the rest is done.
    jobs.enqueue(pipe, ("delete_group", {"group_id": group.id, "stage": "posts", "page": 1}))
    pipe.hdel(keys.GROUP_HANDLES, group.handle.lower())
    pipe.zrem(keys.GROUPS_BY_MEMBERS, group.id)
    pipe.zrem(keys.GROUPS_BY_CREATED, group.id)
    queue_name_index(pipe, group.id, group.handle, group.name, add=False)
    pipe.delete(keys.group_key(group.id))
    pipe.execute()
    if group.avatar:
        delete_avatar_files(group.id, group.avatar)


# Group avatars: as people's (accounts.avatars: checked, redrawn off the request slot),
# stored under their own names.
def avatar_name(group_id: int, token: str, size: int) -> str:
    return f"group-avatars/{group_id}/{token}-{size}.webp"


def avatar_url(group_id: int, token: str | None, size: int = 96) -> str:
    """The URL of a group's avatar `token` (its "avatar" field) at `size` (one of
    accounts.avatars.SIZES), or of the default picture for none."""
    if not token:
        return kept_static(avatars.DEFAULT_AVATAR)
    return default_storage.url(avatar_name(group_id, token, size))


def group_avatar_url(group: Group, size: int = 96) -> str:
    """The URL of the group's avatar at `size`, or of the default picture."""
    return avatar_url(group.id, group.avatar, size)


def delete_avatar_files(group_id: int, token: str) -> None:
    for size in avatars.SIZES:
        default_storage.delete(avatar_name(group_id, token, size))


def set_avatar(group_id, by: int, data: bytes | None) -> str:
    """A moderator `by` gives the group the picture in `data` as its avatar (None: takes
    it away): its token ("" for none). BadAvatar (nothing changes) if it isn't an
    acceptable picture, offslot.Busy if no process was free; NoSuchGroup, GroupError."""
    group = check_moderator(group_id, by).group
    token = ""
    if data is not None:
        files = avatars.drawn(data)
        token = secrets.token_hex(8)
        for size, webp in files.items():
            default_storage.save(avatar_name(group.id, token, size), ContentFile(webp))
    conn = get_redis()
    # Only while the group is there: a deleted group's hash isn't made again.
    if conn.exists(keys.group_key(group.id)):
        conn.hset(keys.group_key(group.id), "avatar", token)
    elif token:
        delete_avatar_files(group.id, token)
        raise NoSuchGroup(NO_SUCH_GROUP)
    if group.avatar:
        delete_avatar_files(group.id, group.avatar)
    return token


class GroupsNamed:
    """The groups a page's notifications name, read on its pipeline: `value` is
    {group id: {"id", "handle", "name"}} for those that exist."""

    def __init__(self, ids: list[int], reply: Reply) -> None:
        self.ids, self.reply = ids, reply

    @property
    def value(self) -> dict[int, dict]:
        found = {}
        for group_id, (handle, name) in zip(self.ids, self.reply.value, strict=True):
            if handle:
                found[group_id] = {"id": group_id, "handle": handle, "name": name or handle}
        return found


def queue_groups_named(pipe: PackedPipeline, ids: list[int]) -> GroupsNamed:
    """Queues the read of the handles and names of groups `ids` (notifications' pages:
    registered with timeline.notifications.selectors)."""
    reply = pipe.for_each_key(map(keys.group_key, ids), ("HMGET", "handle", "name"))
    return GroupsNamed(list(ids), reply)
