"""Statuses stored before statuses.layout kept an `id` field and their posted time as
seconds in text under `posted`: each is rewritten to the layout's (no id, the time in
whole microseconds under layout.POSTED_FIELD) by one script in its own slot."""

from socialsite.redis import PackedPipeline, get_redis, scan_batches

from .. import keys
from ..statuses.scores import MICROSECONDS
from . import Say, scripts

DESCRIPTION = "statuses keep their posted time in microseconds and no id field"


# The fields a status hash had before statuses.layout: named here alone.
OLD_FIELDS = ("posted", "id")


def apply(say: Say) -> None:
    say(f"  Rewrote {rewrite_old_statuses()} statuses in the compact layout.")


def rewrite_old_statuses(batch: int = 1000) -> int:
    """Rewrites every status hash holding an old field; returns how many it rewrote.
    The common case, a hash in the layout already, costs an HMGET in a pipeline."""
    conn, rewritten = get_redis(), 0
    for names in scan_batches(conn, keys.STATUS_PATTERN, "HASH", batch):
        read = PackedPipeline(conn)
        read.for_each_key(names, ("HMGET", *OLD_FIELDS))
        old = [name for name, fields in zip(names, read.execute(), strict=True) if any(fields)]
        pipe = PackedPipeline(conn)
        for name in old:
            scripts.posted_in_microseconds(
                pipe, status_key=name, microseconds_a_second=MICROSECONDS
            )
        rewritten += sum(pipe.execute())
    return rewritten
