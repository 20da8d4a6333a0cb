"""Homes stored as sorted sets scored newest first (before feeds.home_list) become lists
of their ids in place; homes stored the book's way (`home:{uid}`, scored by posted time)
are taken away and their owners' homes counted as dropped (feeds.homes), so each is
rebuilt by the refill job at its owner's next read, as after a pause."""

from accounts.keys import hash_tag_id, user_key
from socialsite.redis import PackedPipeline, get_redis, scan_batches

from .. import keys
from ..feeds import home_list, homes
from . import Say, scripts

DESCRIPTION = "home timelines become lists; homes kept the book's way are rebuilt when read"


# The last read recorded for a retired home: long ago, but a read (feeds.refill's
# note_home_read then rebuilds it).
LONG_AGO = 1


def book_home_key(uid: int | str) -> str:
    """A home as the book stored it (scored by posted time), and the key its shown
    reposts hang from: named here alone, since nothing else reads them any more."""
    return f"home:{{{uid}}}"


def apply(say: Say) -> None:
    say(f"  Converted {convert_sorted_homes()} home timelines to lists.")
    say(f"  Retired {retire_book_homes()} old home timelines (rebuilt when next read).")


def convert_sorted_homes(batch: int = 1000) -> int:
    """Converts the homes stored as sorted sets into lists, newest at the head, each by
    one script in its owner's slot; returns how many it converted."""
    conn, converted = get_redis(), 0
    for found in scan_batches(conn, keys.HOME_TIMELINE_PATTERN, "ZSET", batch):
        pipe = PackedPipeline(conn)
        for home in found:
            scripts.convert_home(pipe, home_key=home, ids_per_command=home_list.IDS_PER_COMMAND)
        converted += sum(pipe.execute())
    return converted


def retire_book_homes(batch: int = 1000) -> int:
    """Takes away the homes stored the book's way and counts their owners' homes as
    dropped, each by one script in its owner's slot; returns how many it took."""
    conn, retired = get_redis(), 0
    for found in scan_batches(conn, book_home_key("*"), "ZSET", batch):
        uids = [hash_tag_id(key) for key in found]
        # Fan-out skips them from here on; a read meanwhile is undone by the script
        # below, so the read after it rebuilds the home.
        marks = conn.pipeline(transaction=False)
        marks.zadd(keys.ACTIVE_HOMES, dict.fromkeys(uids, LONG_AGO))
        homes.mark_dropped(marks, uids, True)
        marks.execute()
        pipe = PackedPipeline(conn)
        for uid in uids:
            home = book_home_key(uid)
            scripts.retire_book_home(
                pipe,
                user_key=user_key(uid),
                home_key=home,
                shown_reposts_key=keys.shown_reposts_key(home),
                last_read=LONG_AGO,
            )
        retired += sum(1 for taken in pipe.execute() if taken)
    return retired
