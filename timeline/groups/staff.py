"""A group's staff: its owner and moderators (the group hash's `owner` and the
moderators set, timeline.groups.moderation's), and telling them of a request to join.
Below both services (a join that becomes a request notifies them) and moderation."""

from accounts.services import get_user
from socialsite.redis import get_redis

from .. import keys
from ..notifications import services as notifications


def moderators_of(group_id: int) -> list[int]:
    """The owner's and the moderators' uids, the owner first: 1 round trip."""
    pipe = get_redis().pipeline(transaction=False)
    pipe.hget(keys.group_key(group_id), "owner")
    pipe.zrange(keys.group_moderators_key(group_id), 0, -1)
    owner, named = pipe.execute()
    staff = [int(owner)] if owner else []
    return staff + [int(uid) for uid in named if int(uid) not in staff]


def notify_request(group_id: int, uid: int) -> None:
    """Tells the group's owner and moderators that `uid` asks to join (a join that gave
    "requested"); asking again notifies no one twice. 3 round trips."""
    requester = get_user(uid)
    if requester is None:
        return
    actor = {"id": int(uid), "login": requester["login"]}
    pipe = get_redis().pipeline(transaction=False)
    for moderator in moderators_of(group_id):
        notifications.queue_notify(pipe, moderator, notifications.GROUP_REQUEST, actor, group_id)
    pipe.execute()


def queue_withdraw_request(pipe, group_id: int, uid: int, login: str) -> None:
    """Queues the removal of the notifications `uid`'s request to join made (it is
    answered or withdrawn)."""
    actor = {"id": int(uid), "login": login}
    for moderator in moderators_of(group_id):
        notifications.queue_withdraw(pipe, moderator, notifications.GROUP_REQUEST, actor, group_id)


def withdraw_request(group_id: int, uid: int) -> None:
    """Takes back the notifications `uid`'s request to join made (it was withdrawn,
    turned down, or they were removed): 3 round trips."""
    requester = get_user(uid)
    if requester is None:
        return
    pipe = get_redis().pipeline(transaction=False)
    queue_withdraw_request(pipe, group_id, uid, requester["login"])
    pipe.execute()
