"""The client API's reads of a user's notifications: pages by id (a notification's id
is its score, distinct and rising in its set: notify.lua), of some kinds or one actor's
only; one notification by its id; one group of them by its group_key (the page's
grouping, selectors.group_key); the unread ones.

A page reads its set in chunks, newest first (oldest first after a min_id), until it
has what it was asked for: a filter that matches little costs a few more round trips,
never more than the set's cap (settings.NOTIFICATIONS_KEPT) read."""

from collections.abc import Collection

from accounts.keys import user_key
from socialsite.redis import get_redis

from .. import keys
from .selectors import Entry, entries_of, group_key
from .services import FOLLOW, KIND_LETTERS, MENTION_KINDS

# Members read a round trip when a page filters.
CHUNK = 200


def page_by_id(
    uid: int,
    *,
    limit: int,
    max_id: int | None = None,
    since_id: int | None = None,
    min_id: int | None = None,
    kinds: Collection[str] | None = None,
    actor: int | None = None,
    groups: bool = False,
) -> list[Entry]:
    """Up to `limit` of `uid`'s notifications (or, with `groups`, the notifications of
    up to `limit` groups), newest first: those before `max_id` and after `since_id`, or
    the `limit` right after `min_id`; only of `kinds` and by `actor` if given."""
    wanted = set(kinds) if kinds is not None else None
    mentions_only = wanted is not None and bool(wanted) and wanted <= MENTION_KINDS
    key = (keys.mention_notifications_key if mentions_only else keys.notifications_key)(uid)
    upward = min_id is not None
    low = f"({min_id if upward else since_id}" if (upward or since_id) else "-inf"
    high = f"({max_id}" if max_id is not None else "+inf"
    conn = get_redis()
    taken: list[Entry] = []
    seen_groups: set[str] = set()
    offset = 0
    while True:
        # One more than a chunk tells whether the set goes on (the next chunk reads it
        # again): no round trip to learn that a chunk was the last.
        if upward:
            found = conn.zrangebyscore(key, low, high, offset, CHUNK + 1, withscores=True)
        else:
            found = conn.zrevrangebyscore(key, high, low, offset, CHUNK + 1, withscores=True)
        full = False
        for entry in entries_of(found[:CHUNK]):
            if wanted is not None and entry.kind not in wanted:
                continue
            if actor is not None and entry.actor != actor:
                continue
            if groups:
                # The page ends where a group past `limit` would start: that group is
                # the next page's, as any older notification of the page's groups.
                group = group_key(entry.kind, entry.obj, entry.actor)
                full = group not in seen_groups and len(seen_groups) == limit
                seen_groups.add(group)
            else:
                full = len(taken) == limit
            if full:
                break
            taken.append(entry)
        if full or len(found) <= CHUNK:
            break
        offset += CHUNK
    return list(reversed(taken)) if upward else taken


def entry_by_id(uid: int, notification_id: int) -> Entry | None:
    """`uid`'s notification `notification_id`, or None if there is none (any more)."""
    found = get_redis().zrangebyscore(
        keys.notifications_key(uid), notification_id, notification_id, withscores=True
    )
    entries = entries_of(found)
    return entries[0] if entries else None


def parse_group_key(key: str) -> str:
    """`key` if it names a group selectors.group_key can make, else ValueError."""
    kind, _, rest = key.partition("-")
    if key == FOLLOW:
        return key
    if kind not in KIND_LETTERS or not rest.isdigit() or str(int(rest)) != rest:
        raise ValueError(f"No notification group {key!r}.")
    return key


def group_entries(uid: int, key: str) -> list[Entry]:
    """Every notification of `uid`'s group `key`, newest first: one read of the whole
    (capped) set, grouped by the page's rule."""
    parse_group_key(key)
    found = get_redis().zrevrange(keys.notifications_key(uid), 0, -1, withscores=True)
    return [e for e in entries_of(found) if group_key(e.kind, e.obj, e.actor) == key]


def unread_entries(uid: int, kinds: Collection[str] | None = None) -> list[Entry]:
    """`uid`'s notifications (of `kinds`, if given) made since they last read them,
    newest first: 2 round trips (the time they read, then those after it)."""
    conn = get_redis()
    read_at = conn.hget(user_key(uid), keys.NOTIFICATIONS_READ_AT) or 0
    key = keys.notifications_key(uid)
    found = entries_of(conn.zrevrangebyscore(key, "+inf", f"({read_at}", withscores=True))
    return [entry for entry in found if kinds is None or entry.kind in kinds]
