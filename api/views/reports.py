"""Reporting an account, or some of its statuses, to the operators (timeline.reports,
as the pages' report forms do): Mastodon's categories as the site's reasons."""

from timeline.feeds.selectors import shown_status
from timeline.reports import services as reports
from timeline.reports.selectors import get_report

from .. import entities
from ..http import ApiError, ApiRequest, caller_uid, endpoint, id_param, limit_rate, params
from .accounts import profile

# Mastodon's report categories as the site's reasons.
REASON_OF_CATEGORY = {"spam": "spam", "violation": "abuse", "legal": "other", "other": "other"}
# Statuses one report may name (each is a report of its own here).
STATUS_IDS_MAX = 5


def reported_statuses(found: dict, uid: int, account_uid: int) -> list[int]:
    """The status ids a report names, each one of the account's that the caller sees;
    ApiError otherwise, before anything is filed."""
    asked = found.get("status_ids[]") or found.get("status_ids") or []
    asked = [asked] if isinstance(asked, str | int) else list(asked)
    if len(asked) > STATUS_IDS_MAX:
        raise ApiError(422, f"Report at most {STATUS_IDS_MAX} statuses at once.")
    status_ids = list(dict.fromkeys(id_param(status_id) for status_id in asked))
    for status_id in status_ids:
        status = shown_status(status_id, viewer=uid)
        if status is None or status["uid"] != account_uid:
            raise ApiError(422, f"Status {status_id} isn't one of that account's.")
    return status_ids


@endpoint("POST", scope="write")
def report(request: ApiRequest) -> dict:
    found = params(request)
    if not found.get("account_id"):
        raise ApiError(422, "account_id is required.")
    target = profile(found["account_id"])
    category = str(found.get("category") or "other")
    if category not in REASON_OF_CATEGORY:
        raise ApiError(422, f"category must be one of {', '.join(REASON_OF_CATEGORY)}.")
    reason, comment = reports.check_report(
        REASON_OF_CATEGORY[category], str(found.get("comment") or "")
    )
    uid = caller_uid(request)
    status_ids = reported_statuses(found, uid, target["id"])
    if target["id"] == uid:
        raise ApiError(422, "You can't report yourself.")
    limit_rate(request, "reports")
    if status_ids:
        filed = [reports.report_status(uid, status_id, reason, comment) for status_id in status_ids]
    else:
        filed = [reports.report_user(uid, target["id"], reason, comment)]
    report = get_report(filed[0])
    # Filed just above.
    assert report is not None
    return {
        "id": str(filed[0]),
        "action_taken": False,
        "action_taken_at": None,
        "category": category,
        "comment": comment,
        "forwarded": False,
        "created_at": entities.iso(report["filed"]),
        "status_ids": [str(status_id) for status_id in status_ids] or None,
        "rule_ids": None,
        "target_account": entities.account(entities.site_of(request), target),
    }
