"""The repair command's check of every user's filters (accounts.filters): a filter that
can't be read (not JSON, or missing what every filter has) is reported and, with fix,
removed; a `next_id` below an id already handed out (so ids could repeat) is reported
and raised; filters of a user whose profile is gone are reported and removed."""

import json
from collections.abc import Callable, Iterator

from socialsite.redis import get_redis, scan_batches

from .keys import filters_key, hash_tag_id, user_key

FILTER_FIELDS = {"id", "title", "context", "filter_action", "keywords", "statuses"}


def _highest_id(found: dict) -> int:
    ids = [int(found["id"])]
    ids += [int(part["id"]) for name in ("keywords", "statuses") for part in found[name]]
    return max(ids)


def _readable(value: str) -> dict | None:
    try:
        found = json.loads(value)
    except ValueError:
        return None
    if not isinstance(found, dict) or not set(found) >= FILTER_FIELDS:
        return None
    return found


def check_filters(
    *, fix: bool, progress: Callable[[str], None] = lambda _: None
) -> tuple[int, list[tuple[str, str]]]:
    """How many users' filters were checked, and what is wrong: (key, problem) pairs;
    with `fix`, each repaired (each step one command in the user's slot)."""
    conn = get_redis()
    checked, findings = 0, list[tuple[str, str]]()
    for batch in scan_batches(conn, filters_key("*"), "hash"):
        for key in batch:
            checked += 1
            findings.extend(_check_one(conn, key, fix))
    progress(f"Checked the filters of {checked} users.")
    return checked, findings


def _check_one(conn, key: str, fix: bool) -> Iterator[tuple[str, str]]:
    uid = hash_tag_id(key)
    if not conn.exists(user_key(uid)):
        yield key, "belongs to no user"
        if fix:
            conn.delete(key)
        return
    raw = conn.hgetall(key)
    highest = 0
    for field, value in raw.items():
        if field == "next_id":
            continue
        found = _readable(value)
        if found is None:
            yield key, f"holds an unreadable filter {field}"
            if fix:
                conn.hdel(key, field)
            continue
        highest = max(highest, _highest_id(found))
    if int(raw.get("next_id") or 0) < highest:
        yield key, f"next_id is below {highest}, an id in use"
        if fix:
            # HINCRBY by the difference: a filter made meanwhile only raises it further.
            conn.hincrby(key, "next_id", highest - int(raw.get("next_id") or 0))
