"""The reports about a group's posts, for the group's moderators: their queue page, and
dismissing a report, removing the reported post, or passing the report on to the site's
moderators (reports.groups). A page of the group's moderation (timeline.groups'
moderation_views), here as it needs this room's work."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.auth import logged_in_uid

from ..groups.moderation_views import item_action, moderators_page
from ..groups.records import Group
from . import groups as group_reports

REPORTS_SHOWN = 200


@moderators_page
def reports(request: HttpRequest, group: Group) -> HttpResponse:
    """The open reports waiting for the group's moderators, grouped by post, newest first."""
    found = group_reports.group_report_queue(group.id, logged_in_uid(request), REPORTS_SHOWN)
    return render(request, "groups/reports.html", {"group": group, "reported": found})


def _report_action(change: Callable[[int, int, int], object], done: str):
    return item_action(change, done, id_name="report_id", back="group_reports")


dismiss = _report_action(group_reports.dismiss_group_report, "Report dismissed.")
remove_post = _report_action(
    group_reports.remove_reported_post, "The post is off {name}, and its reports closed."
)
escalate = _report_action(
    group_reports.escalate_group_report, "Passed on to the site's moderators."
)
