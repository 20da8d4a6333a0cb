"""The admin's moderation queue: open reports grouped by what they report, one report
with what was done about it, and the actions (dismiss, delete the status, suspend the
account), each confirmed, recorded on the report and in the admin log."""

from django.contrib import messages
from django.contrib.admin.models import CHANGE
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from socialsite.admin_views import confirm, log_action, render

from . import selectors, services


def queue(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "reports.html",
        f"Moderation queue ({selectors.open_count()} open)",
        crumbs=[("Reports", None)],
        groups=selectors.moderation_queue(),
        reasons=services.REASONS,
    )


def _report_or_404(report_id: int) -> dict:
    report = selectors.get_report(report_id)
    if report is None:
        raise Http404("No such report.")
    return report


def report(request: HttpRequest, report_id: int) -> HttpResponse:
    found = _report_or_404(report_id)
    return render(
        request,
        "report.html",
        f"Report {report_id}",
        crumbs=[("Reports", reverse("admin:redis_reports")), (f"Report {report_id}", None)],
        report=found,
        reasons=services.REASONS,
    )


ACTIONS = {
    "dismiss": ("Dismiss", "Close the report with no action.", services.dismiss),
    "delete": (
        "Delete the status of",
        "Delete the status for everyone and close every open report on it.",
        services.delete_reported_status,
    ),
    "suspend": (
        "Suspend the account named in",
        "Suspend the account (its statuses hide) and close every open report on it.",
        services.suspend_reported_user,
    ),
}


def report_action(request: HttpRequest, report_id: int, action: str) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404("No such action.")
    found = _report_or_404(report_id)
    verb, detail, act = ACTIONS[action]
    page = reverse("admin:redis_report", args=[report_id])
    if request.method != "POST":
        crumbs = [
            ("Reports", reverse("admin:redis_reports")),
            (f"Report {report_id}", page),
            (action.capitalize(), None),
        ]
        question = f"{verb} report {report_id} (@{found['target_login']})?"
        return confirm(request, f"{verb} report {report_id}", crumbs, question, [detail], page)
    if found["state"] != services.OPEN and action == "dismiss":
        messages.info(request, f"Report {report_id} was already closed.")
        return redirect(page)
    try:
        act(found, request.user.get_username())
    except ValueError as error:
        messages.error(request, str(error))
        return redirect(page)
    label = f"report {report_id} on {found['kind']} {found['target']}"
    log_action(request, CHANGE, f"report:{report_id}", label, f"{action.capitalize()}.")
    messages.success(request, f"Done: {action} (report {report_id}).")
    return redirect("admin:redis_reports")
