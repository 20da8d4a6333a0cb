"""Notifications stored before compact members, "kind:object:actor uid:actor login"
scored in Unix seconds (a float's 17 digits, ~49 B a follow in a set of 1,000), become
notifications.services.notification_member scored in whole milliseconds (~15 B), and
each reader's last read (keys.NOTIFICATIONS_READ_AT) turns to milliseconds with them."""

from typing import Any

from accounts.keys import hash_tag_id
from socialsite.redis import PackedPipeline, get_redis, scan_batches

from .. import keys
from ..notifications.services import FOLLOW, KIND_LETTERS, notification_keys
from . import Say, scripts

DESCRIPTION = "notifications naming logins become compact"

# A score under this is Unix seconds: a set holding one was stored before compact
# members (whose milliseconds pass it since 1973), and its oldest score is such a one.
SECONDS_BELOW = 10**11


def apply(say: Say) -> None:
    say(f"  Converted {compact_old_notifications()} notifications to the compact form.")


def compact_old_notifications(batch: int = 1000) -> int:
    """Converts every user's notifications stored before compact members, each user's
    sets and last read by one script in their slot; returns how many notifications it
    converted. A set stored compact costs a SCAN step and one read of its oldest score."""
    conn, converted = get_redis(), 0
    letters = [part for kind_letter in KIND_LETTERS.items() for part in kind_letter]
    for names in scan_batches(conn, keys.NOTIFICATIONS_PATTERN, "ZSET", batch):
        oldest = PackedPipeline(conn)
        for name in names:
            oldest.zrange(name, 0, 0, withscores=True)
        firsts = zip(names, oldest.execute(), strict=True)
        old = {hash_tag_id(name) for name, first in firsts if is_old(first)}
        pipe = PackedPipeline(conn)
        for uid in old:
            scripts.compact_notifications(
                pipe,
                **notification_keys(uid),
                follow_kind=FOLLOW,
                seconds_below=SECONDS_BELOW,
                kind_letters=letters,
            )
        converted += sum(pipe.execute())
    return converted


def is_old(first: list[Any]) -> bool:
    """Whether a set's oldest entry (ZRANGE 0 0 WITHSCORES's raw reply) is scored in seconds."""
    return bool(first) and float(first[0][1]) < SECONDS_BELOW
