"""Reading quotes: each quote's quoted status, as its viewer may see it, attached for
its card and entity; and the quotes of a status.

The quoted status is read when the page is, never kept on the quote: deleted since, its
author suspended, or hidden from this viewer by timeline.audience's rule (a block, a
private account they don't follow), the quote shows it "unavailable"."""

from collections.abc import Iterable

from socialsite.redis import Client, PackedPipeline, get_redis

from .. import keys
from ..audience import selectors as audience
from ..statuses.records import Status
from ..statuses.selectors import decode_status, is_hidden
from .keys import quotes_key

DELETED, UNAUTHORIZED, REVOKED = "deleted", "unauthorized", "revoked"


def quoting(statuses: Iterable[Status]) -> list[Status]:
    """The quotes among `statuses` and their reposts' originals (but those given their
    quoted status already)."""
    found = []
    for status in statuses:
        original = status.get("original")
        for shown in (status, original) if original else (status,):
            if shown.get("quote_of") and not _attached(shown):
                found.append(shown)
    return found


def _attached(quote: Status) -> bool:
    return "quoted" in quote or "quote_unavailable" in quote


def with_quotes(
    statuses: list[Status],
    seen_by: audience.Audience,
    hidden: set[int],
    conn: Client | None = None,
) -> None:
    """Gives each quote among `statuses` (and their originals) its quoted status as
    "quoted", or "quote_unavailable" saying why it shows none: 1 round trip if there are
    quotes (none otherwise), 1 more when the rule must learn whether the viewer follows
    a private author. `hidden`: the suspended users, whose statuses read as deleted."""
    quotes = quoting(statuses)
    if not quotes:
        return
    conn = conn or get_redis()
    wanted = sorted({int(q["quote_of"]) for q in quotes if q.get("quote_state") != REVOKED})
    found: dict[int, Status] = {}
    if wanted:
        pipe = PackedPipeline(conn)
        hashes = pipe.for_each_key(map(keys.status_key, wanted), ("HGETALL",))
        pipe.execute()
        for status_id, fields in zip(wanted, hashes.value, strict=True):
            status = decode_status(status_id, fields)
            if status is not None and not is_hidden(status, hidden):
                found[status_id] = status
    shown = {s["id"] for s in audience.visible(conn, list(found.values()), seen_by)}
    for quote in quotes:
        quoted_id = int(quote["quote_of"])
        if quote.get("quote_state") == REVOKED:
            quote["quote_unavailable"] = REVOKED
        elif quoted_id not in found:
            quote["quote_unavailable"] = DELETED
        elif quoted_id not in shown:
            quote["quote_unavailable"] = UNAUTHORIZED
        else:
            quote["quoted"] = found[quoted_id]


def quote_ids(status_id: int, start: int = 0, stop: int = -1) -> list[int]:
    """The ids of the quotes of `status_id` still counted, newest first."""
    found = get_redis().zrevrange(quotes_key(status_id), start, stop)
    return [int(i) for i in found]
