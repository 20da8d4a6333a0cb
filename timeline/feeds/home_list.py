"""Home timelines as Redis lists of status ids, newest at the head: the one place that
knows how a home (keys.home_timeline_key) is stored, written and read.

Why a list: fan-out makes a home the most written key of the site, and at a million
users its bytes are most of the store. A 1,000-entry list of integer ids costs ~4-6 B an
entry (a sorted set as a skiplist ~100 B; as a listpack 14 B, but a ZADD into a
1,000-entry listpack walks it all), and an LPUSH costs Redis less than half a ZADD
(README "Home timelines"). Twitter kept home timelines as lists of ids too.

Order. Status ids come from one counter (statuses:next_id), so id order is post order,
and a home reads newest first by id. A repost is a status of its own: it sits in home by
its own id, when it was reposted (as it did by its posted time before). A delivery is
one LPUSH at the head, so a status delivered late (a fan-out job that ran after newer
statuses reached the home) sits above newer ones. A fan-out chunk redone after a crash
checks each home first (deliver_once.lua: fanout.deliver's `once`), so the homes the
dead worker reached don't get it twice; one that still lands twice (a follower who
leaves between the post's pass and its job) is read once. Readers never show either: a
page reads the head of the home up to READ_MARGIN entries past its end and shows those
ids deduplicated, newest first (`newest_first`). A page is exact while fewer than
READ_MARGIN out-of-place or repeated entries sit above its end; a read that finds its
window out of order has the whole home put in order (`queue_sort`: one script in the
home's slot, sent with the page's second round trip, so the next read of any page finds
it sorted). The follow's copy and the refill merge into a home the same way
(merge_home.lua: sorted, no repeats, newest HOME_TIMELINE_SIZE kept), and a status taken
out (deleted, unfollowed) is taken out wherever and however often it is there (LREM 0;
an unfollow rewrites the home without the unfollowed user's statuses: graph's
remove_following.lua).

Measured against sorting on read: placing each delivery in order by a script runs, even
on its fast path, at 0.27-0.36x an LPUSH's rate, below the ZADD it replaces (the bench's
`delivery` rows), which fan-out can't afford; late deliveries are the exception, and they
land at the head, where the next read sees them."""

import operator
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from accounts.keys import user_key
from socialsite.redis import Client, Pipe

from .. import keys
from ..follow_sets import following
from . import scripts

# Entries a page reads past its end, for statuses delivered out of order or twice.
READ_MARGIN = 32
# Ids a script takes a command (Lua's stack holds a few thousand arguments).
IDS_PER_COMMAND = 1000


def newest_first(entries: Iterable) -> list[str]:
    """The ids among `entries` (a home's, as read) once each, newest (highest) first."""
    return sorted(set(entries), key=int, reverse=True)


def in_order(entries: list) -> bool:
    """Whether `entries` (a home's, as read) are newest first with no repeats."""
    ids = list(map(int, entries))
    # Compared in C (map of operator.gt), not a Python step a pair (a page 10 deep reads
    # ~330 ids); the int() of each is most of what is left.
    return all(map(operator.gt, ids, ids[1:]))


def shown(entries: list) -> tuple[list[str], bool]:
    """The ids among `entries` (a home's, as read) once each, newest first, and whether
    they were so already (the common case: no sort)."""
    if in_order(entries):
        return entries, True
    return newest_first(entries), False


def queue_window(client: Client | Pipe, uid: int, stop: int) -> Any:
    """Queues the read of `uid`'s home from its head to READ_MARGIN entries past `stop`
    (an index; -1: all of it), for `newest_first`."""
    end = -1 if stop < 0 else stop + READ_MARGIN
    return client.lrange(keys.home_timeline_key(uid), 0, end)


def queue_sort(client: Client | Pipe, uid: int, size: int) -> None:
    """Queues putting `uid`'s home in order (newest first, no repeats, the newest `size`)."""
    queue_merge(client, uid, size, [])


def queue_merge(client: Client | Pipe, uid: int, size: int, groups: list) -> Any:
    """Queues merging statuses into `uid`'s home (merge_home.lua), the home kept in
    order and to its newest `size`: `groups` is [(source uid, [status ids])...], each
    merged only if the source is still followed (or is `uid`). Nothing happens to the
    home of a deleted user. Replies how many ids were new to the home."""
    flat = [x for source, ids in groups for x in (source, len(ids), *ids)]
    return scripts.merge_home(
        client,
        user_key=user_key(uid),
        following_key=keys.following_key(uid),
        home_key=keys.home_timeline_key(uid),
        uid=uid,
        size=size,
        ids_per_command=IDS_PER_COMMAND,
        following_buckets=following.BUCKETS,
        groups=flat,
    )


def queue_remove(client: Client | Pipe, uid: int, status_ids: list) -> None:
    """Queues taking `status_ids` (a few: each LREM walks the home) out of `uid`'s home,
    every time each is there."""
    home = keys.home_timeline_key(uid)
    for status_id in status_ids:
        client.lrem(home, 0, status_id)


def delivery(status_id: int, home_size: int, *, trim: bool) -> tuple[tuple, ...]:
    """The commands (each after a home's key) that deliver `status_id` to a home: LPUSH,
    and with `trim` an LTRIM to the newest `home_size`."""
    push = ("LPUSH", status_id)
    return (push, ("LTRIM", 0, home_size - 1)) if trim else (push,)


def retraction(status_id: int) -> tuple:
    """The command (after a home's key) that takes `status_id` out, however often it is there."""
    return ("LREM", 0, status_id)


def trims_homes(status_id: int) -> bool:
    """Whether delivering `status_id` also trims the homes it reaches: one status in
    HOME_TRIM_EVERY. A home gets statuses of many authors from one id counter, so it is
    trimmed on about one delivery in HOME_TRIM_EVERY and holds about that many entries
    past HOME_TIMELINE_SIZE at most (pages never show them). A delivery is otherwise one
    LPUSH, not LPUSH + LTRIM: half the commands (the bench's fan-out rows)."""
    return int(status_id) % settings.HOME_TRIM_EVERY == 0
