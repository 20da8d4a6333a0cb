"""Reading an edited status's history: every version, oldest first, the current one last
(as Mastodon's status history lists them)."""

from socialsite.redis import get_redis

from .. import keys
from ..feeds.selectors import shown_status
from ..statuses.records import Status
from .layout import Version, read_version


def current_version(status: Status) -> Version:
    """The version a status shows now: since its last edit, or its posting."""
    return Version(
        message=status["message"],
        at=float(status.get("edited") or status["posted"]),
        spoiler_text=str(status.get("spoiler_text") or ""),
        sensitive=status.get("sensitive") == "1",
    )


def history(status: Status) -> list[Version]:
    """Every version of `status` (a status as its reader may see it, never a repost),
    oldest first, the current one last: 1 round trip for an edited one, none else."""
    if not status.get("edited"):
        return [current_version(status)]
    earlier = get_redis().lrange(keys.status_versions_key(status["id"]), 0, -1)
    return [*(read_version(stored) for stored in earlier), current_version(status)]


def shown_edited(status_id: int, viewer: int | None) -> Status | None:
    """The status whose history `viewer` asks for, as the rule lets them see it (a
    repost's original); None if gone or hidden."""
    found = shown_status(status_id, viewer=viewer)
    if found is None or not found.get("repost_of"):
        return found
    return found.get("original")


def versions_of(statuses: list[Status]) -> dict[int, list[Version]]:
    """The earlier versions of each edited status of `statuses`, by id, oldest first: 1
    round trip for a page holding any edited status, none else."""
    edited = [status["id"] for status in statuses if status.get("edited")]
    if not edited:
        return {}
    pipe = get_redis().pipeline(transaction=False)
    for status_id in edited:
        pipe.lrange(keys.status_versions_key(status_id), 0, -1)
    read = pipe.execute()
    return {
        status_id: [read_version(stored) for stored in found]
        for status_id, found in zip(edited, read, strict=True)
    }
