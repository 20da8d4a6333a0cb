"""Reports on groups' posts: filed into the group's own queue (reports.services), where
its owner and moderators dismiss them, remove the post, or send them on to the site's
moderators; one they leave open GROUP_REPORT_ESCALATE_SECONDS goes there by itself
(reports.selectors.escalate_due)."""

from accounts.services import get_user

from ..groups.moderation import check_moderator, remove_post
from . import services
from .selectors import ReportGroup, escalate, get_report, moderation_queue

NO_SUCH_REPORT = "No such report waits for this group's moderators."


def group_report_queue(group_id, by: int, count: int = 200) -> list[ReportGroup]:
    """The open reports waiting for the group's moderators, grouped by post, as `by` (a
    moderator) sees them. NoSuchGroup, or GroupError if `by` may not."""
    standing = check_moderator(group_id, by)
    return moderation_queue(count, group=standing.group.id)


def _group_report(group_id, by: int, report_id: int) -> tuple[dict, str]:
    """The open report `report_id` waiting in the group's queue, and `by`'s login, if
    `by` moderates the group; ValueError otherwise."""
    standing = check_moderator(group_id, by)
    report = get_report(int(report_id))
    if report is None or report["state"] != services.OPEN or report["escalated"]:
        raise ValueError(NO_SUCH_REPORT)
    if report["group"] != standing.group.id:
        raise ValueError(NO_SUCH_REPORT)
    moderator = get_user(by)
    return report, f"@{moderator['login']}" if moderator else ""


def dismiss_group_report(group_id, by: int, report_id: int) -> bool:
    """A moderator of the group closes a report with no action."""
    report, moderator = _group_report(group_id, by, report_id)
    return services.dismiss(report, moderator)


def escalate_group_report(group_id, by: int, report_id: int) -> int:
    """A moderator of the group sends a report on to the site's moderators: 1 if moved."""
    report, _ = _group_report(group_id, by, report_id)
    return escalate([report["id"]])


def remove_reported_post(group_id, by: int, report_id: int) -> int:
    """A moderator of the group removes the reported post from it (then deleted:
    groups.moderation.remove_post) and closes the group's open reports on it: how many."""
    report, moderator = _group_report(group_id, by, report_id)
    remove_post(group_id, by, report["target"])
    what = f"Removed status {report['target']} from the group."
    return sum(
        services.close(found, services.ACTIONED, moderator, what)
        for found in services.open_reports_on(services.STATUS, report["target"])
        if found["group"] == report["group"] and not found["escalated"]
    )
