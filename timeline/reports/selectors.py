"""Reading reports: the moderation queue (open reports, newest first, grouped by what
they report) and one report with the actions taken on it."""

import json
from dataclasses import dataclass

from socialsite.redis import get_redis

from .. import keys


def decode_report(fields: dict) -> dict | None:
    if not fields:
        return None
    report = dict(fields)
    for name in ("id", "reporter", "target", "target_uid"):
        report[name] = int(report[name])
    report["filed"] = float(report["filed"])
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
    return get_redis().zcard(keys.OPEN_REPORTS)


@dataclass(frozen=True, slots=True)
class ReportGroup:
    """The open reports on one status or account, newest first."""

    kind: str
    target: int
    target_login: str
    message: str
    reports: list[dict]


def moderation_queue(count: int = 200) -> list[ReportGroup]:
    """The newest `count` open reports, grouped by what they report, the group with the
    newest report first: 2 round trips."""
    ids = get_redis().zrevrange(keys.OPEN_REPORTS, 0, count - 1)
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
