"""Reports: any user reports a status or an account to the operators, who act on them
in the admin's moderation queue (timeline.reports.admin_views): dismiss, delete the
status, suspend the account. Each action is recorded on the report (who, when, what).

Every report key shares the hash tag {queue}, so filing one (after its id is taken) and
closing one are each one script in one slot. A reporter has at most one open report
per target; closing it lets them report that target again."""

import json
import time

from django.conf import settings

from accounts.services import get_user, set_suspended
from socialsite.redis import get_redis
from socialsite.text import check_display_text, with_lf

from .. import keys
from ..feeds.selectors import shown_status
from ..posting.services import remove_status
from ..statuses.selectors import GONE, AlreadyDone, StatusGone
from . import scripts
from .selectors import get_reports

STATUS, USER = "status", "user"
REASONS = {"spam": "Spam", "abuse": "Abuse or harassment", "other": "Something else"}
COMMENT_MAX_LENGTH = 500
OPEN, DISMISSED, ACTIONED = "open", "dismissed", "actioned"


def check_report(reason: str, comment: str) -> tuple[str, str]:
    """The reason and comment to store, or ValueError saying what is wrong."""
    if reason not in REASONS:
        raise ValueError(f"Choose a reason: {', '.join(REASONS)}.")
    comment = with_lf((comment or "").strip())
    if len(comment) > COMMENT_MAX_LENGTH:
        raise ValueError(f"A comment is at most {COMMENT_MAX_LENGTH} characters.")
    return reason, check_display_text(comment, multiline=True) if comment else ""


def report_status(uid: int, status_id: int, reason: str, comment: str = "") -> int:
    """`uid` reports a status they can see (not their own); returns the report's id.
    StatusGone if it is gone or hidden from them; ValueError for their own status, a
    bad reason or comment; AlreadyDone (a ValueError) for an open report of theirs on it
    already."""
    reason, comment = check_report(reason, comment)
    status = shown_status(status_id, viewer=uid)
    if status is None:
        raise StatusGone(GONE)
    if status["uid"] == int(uid):
        raise ValueError("You can't report your own status.")
    snapshot = {"message": status["message"], "login": status["login"]}
    # A group's post goes to the group's moderators first (timeline.reports.groups).
    group = int(str(status.get(keys.GROUP_FIELD) or 0)) or None
    return do_file_report(
        uid,
        STATUS,
        status["id"],
        status["uid"],
        reason=reason,
        comment=comment,
        snapshot=snapshot,
        group=group,
    )


def report_user(uid: int, other_uid: int, reason: str, comment: str = "") -> int:
    """`uid` reports an account; returns the report's id. ValueError for yourself, an
    unknown user, a bad reason or comment; AlreadyDone (a ValueError) for an open report
    of theirs on it already."""
    reason, comment = check_report(reason, comment)
    if int(uid) == int(other_uid):
        raise ValueError("You can't report yourself.")
    other = get_user(other_uid)
    if other is None:
        raise ValueError("No such user.")
    snapshot = {"login": other["login"], "message": ""}
    return do_file_report(
        uid, USER, other["id"], other["id"], reason=reason, comment=comment, snapshot=snapshot
    )


def do_file_report(
    uid: int,
    kind: str,
    target: int,
    target_uid: int,
    *,
    reason: str,
    comment: str,
    snapshot: dict,
    group: int | None = None,
) -> int:
    """Files `uid`'s checked report on `target` (a status or an account of `kind`) in the
    reports' slot; returns its id. A report on a post of `group` waits in that group's
    queue for its moderators, and goes to the site's when they escalate it or leave it
    open GROUP_REPORT_ESCALATE_SECONDS. ValueError for an unknown reporter; AlreadyDone
    for an open report of theirs on it already."""
    reporter = get_user(uid)
    if reporter is None:
        raise ValueError("No such user.")
    conn = get_redis()
    report_id, now = conn.incr(keys.REPORT_ID_COUNTER), time.time()
    fields = {
        "id": report_id,
        "reporter": int(uid),
        "reporter_login": reporter["login"],
        "kind": kind,
        "target": int(target),
        "target_uid": int(target_uid),
        "target_login": snapshot["login"],
        "message": snapshot["message"],
        "reason": reason,
        "comment": comment,
        "filed": now,
        "state": OPEN,
        "actions": "[]",
    }
    if group is not None:
        fields["group"] = int(group)
        filed, _report = scripts.file_group_report(
            conn,
            open_report_key=keys.open_report_key(uid, kind, target),
            report_key=keys.report_key(report_id),
            group_reports_key=keys.group_reports_key(group),
            target_reports_key=keys.target_reports_key(kind, target),
            due_key=keys.GROUP_REPORTS_DUE,
            report_id=report_id,
            filed=now,
            escalates_at=now + settings.GROUP_REPORT_ESCALATE_SECONDS,
            fields=[value for pair in fields.items() for value in pair],
        )
    else:
        filed, _report = scripts.file_report(
            conn,
            open_report_key=keys.open_report_key(uid, kind, target),
            report_key=keys.report_key(report_id),
            open_reports_key=keys.OPEN_REPORTS,
            target_reports_key=keys.target_reports_key(kind, target),
            report_id=report_id,
            filed=now,
            fields=[value for pair in fields.items() for value in pair],
        )
    if not filed:
        raise AlreadyDone("You already reported that; the moderators will look at it.")
    return report_id


def queue_of(report: dict) -> str:
    """The queue an open report waits in: its group's, until escalated; else the site's."""
    if report.get("group") and not report.get("escalated"):
        return keys.group_reports_key(report["group"])
    return keys.OPEN_REPORTS


def close(report: dict, state: str, moderator: str, what: str) -> bool:
    """Closes an open report, recording who did `what`: True; False if it wasn't open."""
    action = json.dumps({"who": moderator, "when": time.time(), "what": what})
    return bool(
        scripts.close_report(
            get_redis(),
            report_key=keys.report_key(report["id"]),
            open_reports_key=queue_of(report),
            target_reports_key=keys.target_reports_key(report["kind"], report["target"]),
            open_report_key=keys.open_report_key(
                report["reporter"], report["kind"], report["target"]
            ),
            report_id=report["id"],
            state=state,
            action_json=action,
        )
    )


def open_reports_on(kind: str, target: int) -> list[dict]:
    ids = get_redis().zrange(keys.target_reports_key(kind, target), 0, -1)
    return get_reports([int(i) for i in ids])


def dismiss(report: dict, moderator: str) -> bool:
    """Closes one report with no action: True; False if it wasn't open."""
    return close(report, DISMISSED, moderator, "Dismissed.")


def delete_reported_status(report: dict, moderator: str) -> int:
    """Deletes the status a report names (as a moderator) and closes every open report
    on it; returns how many. ValueError for a report on an account."""
    if report["kind"] != STATUS:
        raise ValueError("That report is about an account, not a status.")
    remove_status(report["target"])
    what = f"Deleted status {report['target']}."
    return sum(
        close(r, ACTIONED, moderator, what) for r in open_reports_on(STATUS, report["target"])
    )


def suspend_reported_user(report: dict, moderator: str) -> int:
    """Suspends the account a report names (or the author of the status it names) and
    closes every open report on that account; returns how many (this one included)."""
    uid = report["target_uid"]
    set_suspended(uid, True)
    what = f"Suspended @{report['target_login']}."
    closed = sum(close(r, ACTIONED, moderator, what) for r in open_reports_on(USER, uid))
    return closed + close(report, ACTIONED, moderator, what)
