"""Quotes (Mastodon 4.5): posting one (`quoted_status_id`, `quote_approval_policy` on
POST /api/v1/statuses, read here), a status's quotes, detaching your status from a
quote, and a status's quote policy."""

from timeline.quotes import services as quotes
from timeline.statuses.selectors import AlreadyDone, StatusGone

from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    endpoint,
    id_param,
    limit_rate,
    params,
)
from .status_pages import statuses_page
from .statuses import shown


@endpoint("GET", scope="read")
def status_quotes(request: ApiRequest, status_id: str) -> ApiResult:
    return statuses_page(request, "quotes", id_param(status_id))


@endpoint("POST", scope="write")
def revoke(request: ApiRequest, status_id: str, quoting_id: str) -> dict:
    """Detaches the caller's status from a quote of it: the quote, its state "revoked"."""
    quoted, quote = id_param(status_id), id_param(quoting_id)
    limit_rate(request, "reactions")
    try:
        quotes.revoke(caller_uid(request), quoted, quote)
    except AlreadyDone:
        pass
    except StatusGone:
        raise ApiError(404, "Record not found") from None
    except PermissionError:
        raise ApiError(403, "This action is not allowed") from None
    return shown(request, quote)


@endpoint("PUT", scope="write")
def interaction_policy(request: ApiRequest, status_id: str) -> dict:
    """Changes who may quote the caller's status (`quote_approval_policy`)."""
    target = id_param(status_id)
    limit_rate(request, "reactions")
    try:
        quotes.set_status_policy(
            caller_uid(request), target, str(params(request).get("quote_approval_policy") or "")
        )
    except StatusGone:
        raise ApiError(404, "Record not found") from None
    except PermissionError:
        raise ApiError(403, "This action is not allowed") from None
    except ValueError as error:
        raise ApiError(422, str(error)) from None
    return shown(request, target)
