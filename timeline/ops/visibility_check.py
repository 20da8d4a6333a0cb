"""The repair command's visibility check (`manage.py repair`): every followers-only or
direct status carries the private mark (which the paths that keep private statuses off
public places read), and no unlisted, followers-only or direct status is on the global
timeline or a tag's page. Walks the status hashes with SCAN, CHUNK at a time."""

from collections.abc import Iterator

from accounts import keys as account_keys

from .. import keys
from ..statuses import visibility
from ..statuses.services import queue_update
from ..statuses.text import tags
from .report import CHUNK, Finding, Progress, RepairReport


def check_visibility(conn, report: RepairReport, progress: Progress) -> None:
    """Reports (and with report.fixed, repairs) statuses whose visibility and marks or
    places disagree."""
    fields = (visibility.VISIBILITY_FIELD, keys.PRIVATE_FIELD, "message", "repost_of")
    checked = 0
    for batch in _status_keys(conn):
        pipe = conn.pipeline(transaction=False)
        for key in batch:
            pipe.hmget(key, *fields)
        found = pipe.execute()
        fix = conn.pipeline(transaction=False)
        for key, (code, private, message, repost_of) in zip(batch, found, strict=True):
            name = visibility.NAMES.get(code or "")
            if message is None or name is None:
                continue
            status_id = account_keys.hash_tag_id(key)
            if name in visibility.LIMITED and private != "1":
                report.findings.append(Finding("visibility", key, f"{name} but not marked private"))
                if report.fixed:
                    queue_update(fix, status_id, [keys.PRIVATE_FIELD, "1"])
            if conn.zscore(keys.GLOBAL_TIMELINE, status_id) is not None:
                report.findings.append(Finding("visibility", key, f"{name} on the global timeline"))
                if report.fixed:
                    fix.zrem(keys.GLOBAL_TIMELINE, status_id)
            if name != visibility.PRIVATE and not repost_of:
                for tag in tags(message):
                    if conn.zscore(keys.tag_timeline_key(tag), status_id) is not None:
                        report.findings.append(Finding("visibility", key, f"{name} on #{tag}"))
                        if report.fixed:
                            fix.zrem(keys.tag_timeline_key(tag), status_id)
        fix.execute()
        checked += len(batch)
    report.checked["statuses' visibility"] = checked
    progress(f"visibility: {checked} statuses checked")


def _status_keys(conn) -> Iterator[list[str]]:
    batch: list[str] = []
    for key in conn.scan_iter(match=keys.STATUS_PATTERN, count=CHUNK, _type="HASH"):
        batch.append(key)
        if len(batch) == CHUNK:
            yield batch
            batch = []
    if batch:
        yield batch
