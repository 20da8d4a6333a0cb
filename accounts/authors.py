"""The author of each status card: display name and avatar, kept a short while in each
process, so a page of cards needs no round trip for them once its authors were seen
(and one, pipelined, for those that weren't). A page that knows whom it shows only by
uid (notifications) reads them on a round trip it makes anyway (queue_authors).

A change of name or avatar shows at once in the process that made it and within
AUTHORS_KEPT_SECONDS in the others."""

import time

from socialsite.kept import keep
from socialsite.redis import PackedPipeline, Reply, get_redis

from . import keys

AUTHORS_KEPT_SECONDS = 30
AUTHORS_KEPT = 20_000
FIELDS = ("login", "name", "avatar")

# uid -> (read at, {"login", "name", "avatar"})
_kept: dict[int, tuple[float, dict]] = {}


def authors(wanted: dict[int, str]) -> dict[int, dict]:
    """The login, name and avatar token of each uid of `wanted` (uid -> the login the
    status names, so a kept entry of another user under a reused uid isn't taken): at
    most 1 round trip, none if all were read lately. Unknown uids are left out."""
    now = time.monotonic()
    found, missing = {}, []
    for uid, login in wanted.items():
        kept = _kept.get(uid)
        if kept and now - kept[0] < AUTHORS_KEPT_SECONDS and kept[1]["login"] == login:
            found[uid] = kept[1]
        else:
            missing.append(uid)
    if missing:
        pipe = PackedPipeline(get_redis())
        authors = queue_authors(pipe, missing)
        pipe.execute()
        found |= read_authors(missing, authors.value)
    return found


def queue_authors(pipe: PackedPipeline, uids: list[int]) -> Reply:
    """Queues the read of `uids`' authors (its value, a reply each, for read_authors)."""
    return pipe.for_each_key(map(keys.user_key, uids), ("HMGET", *FIELDS))


def read_authors(uids: list[int], replies: list) -> dict[int, dict]:
    """The authors of `uids` from queue_authors' replies, kept for a while; unknown uids
    are left out."""
    now = time.monotonic()
    found = {}
    for uid, values in zip(uids, replies, strict=True):
        if values[0] is None:
            continue
        author = dict(zip(FIELDS, values, strict=True))
        keep(_kept, uid, (now, author), AUTHORS_KEPT)
        found[uid] = author
    return found


def forget(uid: int) -> None:
    """Drops what this process keeps of `uid` (their name or avatar changed)."""
    _kept.pop(uid, None)


def forget_all() -> None:
    """Drops everything kept (the store was emptied: the tests' clean Redis)."""
    _kept.clear()
