"""Markers: where a user stopped reading their home and their notifications, kept for
every app they use (Mastodon's /api/v1/markers). Each timeline's marker is three
fields of one hash in the user's slot: the last read id, a version that grows by one
at each save, and when it was saved."""

import time

from socialsite.redis import get_redis

from .keys import markers_key

TIMELINES = ("home", "notifications")
# Ids are ours (status and notification ids) or an app's opaque strings: bounded.
LAST_READ_MAX_LENGTH = 40


def get_markers(uid: int, timelines: list[str] | tuple[str, ...] = TIMELINES) -> dict[str, dict]:
    """`uid`'s markers of `timelines` that were ever saved: timeline -> {"last_read_id",
    "version", "updated_at" (Unix seconds)}. 1 round trip."""
    wanted = [name for name in dict.fromkeys(timelines) if name in TIMELINES]
    if not wanted:
        return {}
    fields = [f"{name}:{part}" for name in wanted for part in ("id", "version", "at")]
    values = get_redis().hmget(markers_key(uid), fields)
    found = {}
    for index, name in enumerate(wanted):
        last_read, version, at = values[index * 3 : index * 3 + 3]
        if last_read is not None:
            found[name] = {
                "last_read_id": last_read,
                "version": int(version or 0),
                "updated_at": float(at or 0),
            }
    return found


def check_last_read(value: object) -> str:
    """A last read id as given, or ValueError."""
    text = str(value if value is not None else "").strip()
    if not text or len(text) > LAST_READ_MAX_LENGTH or not text.isprintable():
        raise ValueError(f"last_read_id is 1 to {LAST_READ_MAX_LENGTH} characters.")
    return text


def save_markers(uid: int, positions: dict[str, object]) -> dict[str, dict]:
    """Saves `uid`'s read position of each timeline in `positions` (timeline -> last read
    id), each version one more than before, in one transaction of their slot; returns
    the markers saved. ValueError (nothing saved) for an unknown timeline or a bad id."""
    if not positions:
        raise ValueError(f"Give the last read id of {' or '.join(TIMELINES)}.")
    checked = {}
    for name, value in positions.items():
        if name not in TIMELINES:
            raise ValueError(f"A marker is for {' or '.join(TIMELINES)}, not {name!r}.")
        checked[name] = check_last_read(value)
    now = time.time()
    pipe = get_redis().pipeline(transaction=True)
    for name, last_read in checked.items():
        pipe.hset(markers_key(uid), mapping={f"{name}:id": last_read, f"{name}:at": now})
        pipe.hincrby(markers_key(uid), f"{name}:version", 1)
    replies = pipe.execute()
    versions = replies[1::2]
    return {
        name: {"last_read_id": last_read, "version": int(version), "updated_at": now}
        for (name, last_read), version in zip(checked.items(), versions, strict=True)
    }
