"""Quotes in the client API's entities: Mastodon 4.5's `quote` (a Quote, with its
state and the quoted Status as the caller may see it) and `quote_approval` on a Status."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from timeline.quotes import rules
from timeline.quotes.services import QuoteRefused
from timeline.statuses.records import Status

from .http import ApiError, optional_id

# Who may quote, as QuoteApproval's `automatic` names them.
AUTOMATIC = {rules.PUBLIC: ["public"], rules.FOLLOWERS: ["followers"], rules.NOBODY: []}
# What the caller is told of a policy they are subject to (they aren't the author: the
# entity doesn't know its reader, so a followers-only policy is "unknown" to it).
CURRENT_USER = {rules.PUBLIC: "automatic", rules.FOLLOWERS: "unknown", rules.NOBODY: "denied"}


def quoted_authors(statuses: list[Status]) -> list[int]:
    """The authors of the quoted statuses a page's entities show (their reposts'
    originals' too)."""
    shown = [*statuses, *(original for s in statuses if (original := s.get("original")))]
    return [int(quoted["uid"]) for s in shown if (quoted := s.get("quoted"))]


def quote_fields(found: Status, entity_of: Callable[[Status], dict | None]) -> dict:
    """A Status entity's quote fields for `found` (`entity_of` makes the quoted one's)."""
    policy = rules.quote_policy(found)
    return {
        "quote": quote(found, entity_of),
        "quotes_count": found.get("quotes", 0),
        "quote_approval": {
            "automatic": AUTOMATIC[policy],
            "manual": [],
            "current_user": CURRENT_USER[policy],
        },
    }


def quote(found: Status, entity_of: Callable[[Status], dict | None]) -> dict | None:
    """The Quote of a quote (None for a status that quotes nothing): "accepted" with the
    quoted Status; "deleted", "revoked" or "unauthorized" without it. A quoted status's
    own quote is shallow (its id), as Mastodon shows one level."""
    quoted_id = found.get("quote_of")
    if not quoted_id:
        return None
    shown = found.get("quoted")
    unavailable = found.get("quote_unavailable")
    if shown is None and unavailable is None:
        return {"state": "accepted", "quoted_status_id": str(quoted_id)}
    entity = entity_of(shown) if shown is not None else None
    if entity is None:
        return {"state": unavailable or "deleted", "quoted_status": None}
    return {"state": "accepted", "quoted_status": entity}


def quote_params(found: dict) -> dict[str, Any]:
    """A new status's quote parameters as post_status takes them; 422 for a policy that
    isn't one."""
    quoting: dict[str, Any] = {}
    quoted = optional_id(found, "quoted_status_id")
    if quoted is not None:
        quoting["quote_id"] = quoted
    policy = found.get("quote_approval_policy")
    if policy not in (None, ""):
        try:
            quoting["quote_policy"] = rules.check_policy(policy)
        except ValueError as error:
            raise ApiError(422, str(error)) from None
    return quoting


def quote_errors(post: Callable) -> Callable:
    """`post` (posting.post_status), answering a refused quote as Mastodon does: 403."""

    @wraps(post)
    def posting(*args: Any, **kwargs: Any) -> Any:
        try:
            return post(*args, **kwargs)
        except QuoteRefused as error:
            raise ApiError(403, str(error)) from None

    return posting
