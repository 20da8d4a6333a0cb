"""What moderators read: statuses walked back by id, hidden ones included, and one
user's statuses even while they are suspended."""

from socialsite.redis import get_redis
from timeline.statuses.records import Status

from .. import keys
from ..feeds.selectors import Page, statuses_page
from ..statuses.selectors import decode_status


def latest_statuses(*, before: int = 0, count: int = 50) -> tuple[list[Status], int]:
    """Up to `count` statuses, newest first, with ids below `before` (0: from the newest),
    hidden ones included; also the cursor for the next page (0 after the last).

    Ids are handed out in posting order, so walking them down is walking back in time;
    deleted ids are skipped, looking at most 10 windows of `count` ids per call."""
    if before < 0 or count < 1:
        raise ValueError("Cursors start at 0 and counts at 1.")
    conn = get_redis()
    top = int(conn.get(keys.STATUS_ID_COUNTER) or 0)
    top = min(top, before - 1) if before else top
    found: list[Status] = []
    for _ in range(10):
        if top < 1 or len(found) >= count:
            break
        window = range(top, max(top - count, 0), -1)
        pipe = conn.pipeline(transaction=False)
        for status_id in window:
            pipe.hgetall(keys.status_key(status_id))
        found += [s for s in map(decode_status, window, pipe.execute()) if s]
        top = window[-1] - 1
    found = found[:count]
    if len(found) == count:
        return found, found[-1]["id"]
    return found, top + 1 if top >= 1 else 0


def statuses_by(uid: int, *, page: int = 1, count: int = 50) -> Page:
    """A page of `uid`'s own statuses, newest first, even while they are suspended."""
    return statuses_page(keys.profile_timeline_key(uid), page, count, include_suspended=True)
