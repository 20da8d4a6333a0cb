"""The jobs of a group's moderation (timeline.groups.moderation) that reach rooms above
the groups': a post removed from a group is deleted as a site moderator deletes it, and
a deleted group's posts and memberships go, batch by batch. Each job is idempotent: a
batch redone deletes what is gone already and clears fields cleared already."""

from socialsite import jobs
from socialsite.redis import PackedPipeline, get_redis

from .. import keys
from ..follow_sets import members as member_sets
from ..posting.services import remove_status
from ..reports import services as reports
from ..reports.selectors import get_reports

# Posts deleted, or members' and requesters' hashes cleared, a job.
GROUP_DELETION_BATCH = 500
STAGES = ("posts", "members", "requests", "keys")


@jobs.handler("group_post_removal")
def remove_group_post(args: dict) -> list[jobs.Job]:
    """Deletes a post its group's moderators removed (gone already: nothing to do)."""
    remove_status(int(args["status_id"]))
    return []


@jobs.handler("delete_group")
def delete_group_batch(args: dict) -> list[jobs.Job]:
    """One batch of a deleted group's clean-up: its posts (deleted, newest first), then
    its members' and requesters' hashes, then its keys; the follow-up job goes on."""
    group_id, stage, page = int(args["group_id"]), args["stage"], int(args.get("page", 1))
    more = _STEPS[stage](group_id, page)
    if more:
        return [("delete_group", {"group_id": group_id, "stage": stage, "page": page + 1})]
    if stage == STAGES[-1]:
        return []
    return [("delete_group", {"group_id": group_id, "stage": STAGES[STAGES.index(stage) + 1]})]


def _delete_posts(group_id: int, page: int) -> bool:
    conn = get_redis()
    timeline = keys.group_timeline_key(group_id)
    ids = conn.zrevrange(timeline, 0, GROUP_DELETION_BATCH - 1)
    for status_id in ids:
        remove_status(int(status_id))
    if ids:
        conn.zrem(timeline, *ids)
    return len(ids) == GROUP_DELETION_BATCH


def _clear_hashes(group_id: int, uids: list) -> None:
    if not uids:
        return
    pipe = PackedPipeline(get_redis())
    pipe.for_each_key(map(keys.member_groups_key, uids), ("HDEL", str(group_id)))
    pipe.execute()


def _clear_members(group_id: int, page: int) -> bool:
    # Paged, not taken out one by one: the set goes whole at the end.
    uids = member_sets.page_ids(get_redis(), group_id, page, GROUP_DELETION_BATCH)
    _clear_hashes(group_id, uids[:GROUP_DELETION_BATCH])
    return len(uids) > GROUP_DELETION_BATCH


def _clear_requests(group_id: int, page: int) -> bool:
    conn = get_redis()
    requests = keys.group_requests_key(group_id)
    uids = conn.zrange(requests, 0, GROUP_DELETION_BATCH - 1)
    _clear_hashes(group_id, uids)
    if uids:
        conn.zrem(requests, *uids)
    return len(uids) == GROUP_DELETION_BATCH


def _delete_keys(group_id: int, page: int) -> bool:
    conn = get_redis()
    # Reports waiting for the group's moderators: its posts are gone, and so are they.
    waiting = conn.zrange(keys.group_reports_key(group_id), 0, -1)
    for report in get_reports([int(i) for i in waiting]):
        reports.close(report, reports.ACTIONED, "", "The group was deleted.")
    conn.delete(
        *member_sets.all_keys(conn, group_id),
        keys.group_requests_key(group_id),
        keys.group_banned_key(group_id),
        keys.group_quiet_key(group_id),
        keys.group_timeline_key(group_id),
        keys.group_moderators_key(group_id),
    )
    return False


_STEPS = {
    "posts": _delete_posts,
    "members": _clear_members,
    "requests": _clear_requests,
    "keys": _delete_keys,
}
