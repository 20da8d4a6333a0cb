"""Statuses: posting (and replying), reading one and its context, deleting, and
favouriting and reblogging, each through the services the pages use."""

from collections.abc import Callable
from typing import Any

from timeline.conversations.selectors import conversation
from timeline.feeds.selectors import shown_status
from timeline.posting import services as posting
from timeline.reactions import services as reactions
from timeline.statuses.records import Status
from timeline.statuses.selectors import AlreadyDone, StatusGone
from timeline.statuses.visibility import VISIBILITIES

from .. import entities, quotes
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    check_caller,
    endpoint,
    id_param,
    limit_rate,
    optional_id,
    params,
    viewer,
)
from ..media import media_ids_param
from . import edits, groups, polls
from .accounts import BOOLEANS
from .status_pages import statuses_page


def shown_with_source(request: ApiRequest, status_id: int) -> tuple[Status, dict]:
    """A status as the caller sees it, and its Status entity; 404 if it is gone."""
    found = shown_status(status_id, viewer=viewer(request))
    entity = entities.statuses(entities.site_of(request), [found])[0] if found else None
    if found is None or entity is None:
        raise ApiError(404, "Record not found")
    return found, entity


def shown(request: ApiRequest, status_id: int) -> dict:
    return shown_with_source(request, status_id)[1]


@endpoint("POST", scope="write")
def create(request: ApiRequest) -> dict:
    found = params(request)
    if found.get("scheduled_at"):
        raise ApiError(422, "scheduled_at is not supported here: no scheduled statuses.")
    # Media (timeline.media): `media_ids[]`, the caller's uploads.
    with_media = media_ids_param(found)
    # Polls: `poll` (checked before anything is stored).
    with_poll = polls.poll_param(found)
    # Visibility, content warning and sensitive flag (vis): absent, the caller's default.
    chosen = found.get("visibility") or None
    if chosen is not None and chosen not in VISIBILITIES:
        raise ApiError(422, f"Validation failed: visibility is one of {', '.join(VISIBILITIES)}.")
    sensitive = found.get("sensitive")
    if sensitive not in (None, "", True, False) and str(sensitive) not in BOOLEANS:
        raise ApiError(422, "sensitive must be true or false.")
    shown_as = {
        "visibility": chosen,
        "spoiler_text": found.get("spoiler_text") or None,
        "sensitive": "1" if BOOLEANS.get(str(sensitive), sensitive is True) else None,
    }
    message = found.get("status")
    if not isinstance(message, str):
        raise ApiError(422, "Validation failed: Text can't be blank")
    reply_to = optional_id(found, "in_reply_to_id")
    # The site's own parameter: a post to a group (views.groups); a reply is its parent's.
    group = found.get("group_id")
    in_group = {"group": str(group)} if group not in (None, "") else {}
    # Quotes: `quoted_status_id`, `quote_approval_policy` (api/quotes.py).
    quoting = quotes.quote_params(found)
    limit_rate(request, "posts")
    try:
        status_id = quotes.quote_errors(groups.group_errors(posting.post_status))(
            caller_uid(request),
            message,
            in_reply_to=reply_to,
            **in_group,
            **with_poll,
            **quoting,
            **shown_as,
            **with_media,
        )
    except StatusGone as error:
        replied = "The status replied to doesn't exist or was deleted."
        raise ApiError(404, str(error) if "quote_id" in quoting else replied) from None
    if status_id is None:
        raise ApiError(422, "Your profile is gone.")
    return shown(request, status_id)


@endpoint("GET", "DELETE", "PUT", public=True, user=False)
def status(request: ApiRequest, status_id: str) -> dict:
    if request.method == "GET":
        return shown(request, id_param(status_id))
    if request.method == "PUT":
        # Edits (api.views.edits).
        return edits.update(request, status_id, shown)
    check_caller(request, "write", user=True, public=False)
    found, entity = shown_with_source(request, id_param(status_id))
    deleted = posting.delete_status(caller_uid(request), found["id"])
    if deleted is None:
        raise ApiError(404, "Record not found")
    if not deleted:
        raise ApiError(403, "This action is not allowed")
    # Mastodon answers with the deleted status and its source text, to redraft it.
    return {**entity, "text": found["message"]}


@endpoint("GET", public=True, user=False)
def context(request: ApiRequest, status_id: str) -> dict:
    found = conversation(id_param(status_id), viewer(request))
    if found is None:
        raise ApiError(404, "Record not found")
    ancestors = entities.statuses(entities.site_of(request), [s for s in found.ancestors if s])
    return {
        "ancestors": ancestors,
        "descendants": entities.statuses(entities.site_of(request), found.replies),
    }


def react(action: Callable[[int, int], Any], *, done_already: str) -> Callable:
    """A reaction endpoint: Mastodon's are idempotent, so doing what is done already
    (the service's ValueError saying so) answers as if it had just been done."""

    @endpoint("POST", scope="write")
    def view(request: ApiRequest, status_id: str) -> dict:
        target = id_param(status_id)
        limit_rate(request, "reactions")
        try:
            made = action(caller_uid(request), target)
        except StatusGone:
            raise ApiError(404, "Record not found") from None
        except AlreadyDone as error:
            if done_already not in str(error):
                raise
            made = None
        # A new reblog is answered with itself, its original inside.
        return shown(request, made if action is reactions.repost and made else target)

    return view


favourite = react(reactions.like, done_already="like")
unfavourite = react(reactions.unlike, done_already="like")
reblog = react(reactions.repost, done_already="reposted")
unreblog = react(reactions.undo_repost, done_already="reposted")


@endpoint("GET", scope="read")
def favourites(request: ApiRequest) -> ApiResult:
    return statuses_page(request, "likes", caller_uid(request))
