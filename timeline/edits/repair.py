"""What the repair (timeline.ops.maintenance) asks of edits' keys: the earlier versions
kept for a status that is gone (a deletion stopped between taking the status and its
clean-up)."""

from collections.abc import Iterator

from accounts.keys import hash_tag_id
from socialsite.redis import Client

from .. import keys
from ..statuses.selectors import exist


def orphaned_versions(conn: Client, chunk: int) -> Iterator[tuple[int, list[str]]]:
    """Walks every status's versions, `chunk` keys at a time: how many it checked and
    the keys of those whose status is gone (1 round trip a chunk, besides the SCAN)."""
    found: list[str] = []
    for key in conn.scan_iter(match=keys.STATUS_VERSIONS_PATTERN, count=chunk, _type="LIST"):
        found.append(key)
        if len(found) == chunk:
            yield len(found), _gone(conn, found)
            found = []
    if found:
        yield len(found), _gone(conn, found)


def _gone(conn: Client, versions: list[str]) -> list[str]:
    ids = [hash_tag_id(key) for key in versions]
    return [key for key, there in zip(versions, exist(conn, ids), strict=True) if not there]
