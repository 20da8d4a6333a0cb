"""Muted words become a filter: each user's muted phrases (`muted_words:{uid}`, a set)
move into their "Muted words" filter (accounts.filters: home, hide, whole words, the
rule they were matched by), and the set goes. Idempotent: a user whose set is gone is
done; one cut short keeps the set until the filter holds its phrases."""

from accounts import filters
from accounts.keys import hash_tag_id
from socialsite.redis import get_redis, scan_batches

from .. import keys
from . import Say

DESCRIPTION = "muted words become each user's Muted words filter"


def apply(say: Say) -> None:
    conn = get_redis()
    moved = 0
    for batch in scan_batches(conn, keys.muted_words_key("*"), "set"):
        for found in batch:
            uid = hash_tag_id(found)
            phrases = conn.smembers(keys.muted_words_key(uid))
            if phrases:
                merged = sorted(set(phrases) | set(filters.muted_words(uid)))
                filters.set_muted_words(uid, merged)
            conn.delete(keys.muted_words_key(uid))
            moved += 1
    say(f"  Moved the muted words of {moved} users into filters.")
