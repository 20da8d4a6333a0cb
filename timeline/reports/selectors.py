"""Reading reports: the moderation queue (open reports, newest first, grouped by what
they report) and one report with the actions taken on it."""

import json
import time
from dataclasses import dataclass

from socialsite.redis import get_redis

from .. import keys
from . import scripts


def decode_report(fields: dict) -> dict | None:
    if not fields:
        return None
    report = dict(fields)
    for name in ("id", "reporter", "target", "target_uid"):
        report[name] = int(report[name])
    report["filed"] = float(report["filed"])
    # On a group's post: its group, and when it went to the site's queue (if it did).
    report["group"] = int(report["group"]) if report.get("group") else None
    report["escalated"] = float(report["escalated"]) if report.get("escalated") else None
    report["actions"] = json.loads(report.get("actions") or "[]")
    return report


def get_reports(report_ids: list[int]) -> list[dict]:
    """The reports with these ids that exist, in order: 1 round trip (one slot)."""
    if not report_ids:
        return []
    pipe = get_redis().pipeline(transaction=False)
    for report_id in report_ids:
        pipe.hgetall(keys.report_key(report_id))
    return [r for r in map(decode_report, pipe.execute()) if r]


def get_report(report_id: int) -> dict | None:
    found = get_reports([int(report_id)])
    return found[0] if found else None


def open_count() -> int:
    """Open reports in the site's queue (those on groups' posts left open too long first
    move there: escalate_due)."""
    escalate_due()
    return get_redis().zcard(keys.OPEN_REPORTS)


def escalate_due(now: float | None = None) -> int:
    """Moves to the site's queue the reports on groups' posts that their group's
    moderators left open past their time: how many. 1 round trip when none is due."""
    now = time.time() if now is None else now
    conn = get_redis()
    due = [int(i) for i in conn.zrangebyscore(keys.GROUP_REPORTS_DUE, "-inf", now, 0, 1000)]
    return escalate(due, now) if due else 0


def escalate(report_ids: list[int], now: float | None = None) -> int:
    """Moves these open reports from their groups' queues to the site's: how many moved
    (a report closed or moved already is left as it is)."""
    now = time.time() if now is None else now
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    for report_id in report_ids:
        pipe.hget(keys.report_key(report_id), "group")
    groups = pipe.execute()
    found = [(i, int(g)) for i, g in zip(report_ids, groups, strict=True) if g]
    gone = [i for i, g in zip(report_ids, groups, strict=True) if not g]
    if gone:
        conn.zrem(keys.GROUP_REPORTS_DUE, *gone)
    if not found:
        return 0
    return int(
        scripts.escalate_reports(
            conn,
            open_reports_key=keys.OPEN_REPORTS,
            due_key=keys.GROUP_REPORTS_DUE,
            report_keys=[keys.report_key(i) for i, _ in found],
            group_reports_keys=[keys.group_reports_key(g) for _, g in found],
            now=now,
            report_ids=[i for i, _ in found],
        )
    )


@dataclass(frozen=True, slots=True)
class ReportGroup:
    """The open reports on one status or account, newest first."""

    kind: str
    target: int
    target_login: str
    message: str
    reports: list[dict]


def moderation_queue(count: int = 200, *, group: int | None = None) -> list[ReportGroup]:
    """The newest `count` open reports in the site's queue (or, with `group`, in that
    group's), grouped by what they report, the group with the newest report first: 3
    round trips (4 if some report on a group's post is due to move to the site's)."""
    escalate_due()
    queue = keys.OPEN_REPORTS if group is None else keys.group_reports_key(group)
    ids = get_redis().zrevrange(queue, 0, count - 1)
    groups: dict[tuple[str, int], list[dict]] = {}
    for report in get_reports([int(i) for i in ids]):
        groups.setdefault((report["kind"], report["target"]), []).append(report)
    return [
        ReportGroup(kind, target, reports[0]["target_login"], reports[0]["message"], reports)
        for (kind, target), reports in groups.items()
    ]


def dashboard_figures() -> dict:
    """For the operators' dashboard: open reports."""
    return {"open_reports": open_count()}
