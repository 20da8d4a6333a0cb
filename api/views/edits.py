"""Edits of statuses, as Mastodon's API has them: PUT /api/v1/statuses/:id (edit one's
own), GET .../history (every version, oldest first) and GET .../source (the text to edit),
through the services the pages use (timeline.edits)."""

from typing import Any

from timeline.edits import selectors, services
from timeline.edits.layout import Version
from timeline.statuses.records import Status
from timeline.statuses.selectors import StatusGone

from .. import entities
from ..http import (
    ApiError,
    ApiRequest,
    caller_uid,
    check_caller,
    endpoint,
    id_param,
    limit_rate,
    params,
    viewer,
)
from ..media import media_ids_param

BOOLEANS = {True: True, False: False, "1": True, "true": True, "0": False, "false": False}
# What an edit can't change here yet: polls. (Media: their alt texts and focal points,
# `media_attributes`, not which media a status has.)
UNSUPPORTED = ("poll",)


def update(request: ApiRequest, status_id: str, shown) -> dict:
    """PUT /api/v1/statuses/:id: edits the caller's status; its Status entity as it now is
    (`shown(request, id)` makes it)."""
    check_caller(request, "write", user=True, public=False)
    target = id_param(status_id)
    found = params(request)
    given = [name for name in UNSUPPORTED if found.get(name)]
    if given:
        raise ApiError(422, f"{given[0]} can't be edited here: a poll stays as it was posted.")
    message = found.get("status")
    if not isinstance(message, str):
        raise ApiError(422, "Validation failed: Text can't be blank")
    changes: dict[str, Any] = {}
    if "spoiler_text" in found:
        changes["spoiler_text"] = found["spoiler_text"]
    if "sensitive" in found:
        if not isinstance(found["sensitive"], bool | str) or found["sensitive"] not in BOOLEANS:
            raise ApiError(422, "sensitive is true or false.")
        changes["sensitive"] = BOOLEANS[found["sensitive"]]
    changes.update(media_edit_params(found))
    limit_rate(request, "edits")
    try:
        services.edit_status(caller_uid(request), target, message, **changes)
    except StatusGone:
        raise ApiError(404, "Record not found") from None
    except services.NotYours:
        raise ApiError(403, "This action is not allowed") from None
    except ValueError as error:
        raise ApiError(422, f"Validation failed: {error}") from None
    return shown(request, target)


def media_edit_params(found: dict) -> dict:
    """Media (timeline.media): `media_attributes` (a JSON list of objects with `id` and
    `description` and/or `focus`; a form's `media_attributes[][id]` and the others, in
    order) and `media_ids` (the status's own, as Mastodon's clients send them)."""
    changes: dict[str, Any] = {}
    attributes = found.get("media_attributes")
    if attributes is None and found.get("media_attributes[][id]") is not None:
        ids = found.get("media_attributes[][id]") or []
        texts = found.get("media_attributes[][description]") or [None] * len(ids)
        points = found.get("media_attributes[][focus]") or [None] * len(ids)
        if not len(ids) == len(texts) == len(points):
            raise ApiError(422, "Each media attribute needs its id, description and focus.")
        attributes = [
            {"id": i, "description": t, "focus": p}
            for i, t, p in zip(ids, texts, points, strict=True)
        ]
    if attributes is not None:
        if not isinstance(attributes, list):
            raise ApiError(422, "media_attributes is a list of objects.")
        changes["media_attributes"] = attributes
    named = media_ids_param(found)
    if named or "media_ids" in found or "media_ids[]" in found:
        changes["media_ids"] = named.get("media_ids", [])
    return changes


def _edited(request: ApiRequest, status_id: str) -> Status:
    found = selectors.shown_edited(id_param(status_id), viewer(request))
    if found is None:
        raise ApiError(404, "Record not found")
    return found


def status_edit(site: str, found: Status, version: Version, account: dict) -> dict:
    """A StatusEdit entity: one version of `found`."""
    return {
        "content": entities.message_html(site, version.message, found.get("mentions", "")),
        "spoiler_text": version.spoiler_text,
        "sensitive": version.sensitive,
        "created_at": entities.iso(version.at),
        "account": account,
        "poll": None,
        "media_attachments": [],
        "emojis": [],
    }


@endpoint("GET", public=True, user=False)
def history(request: ApiRequest, status_id: str) -> list[dict]:
    """Every version of a status the caller may see, oldest first."""
    found = _edited(request, status_id)
    site = entities.site_of(request)
    account = entities.accounts(site, [found["uid"]]).get(found["uid"])
    if account is None:
        raise ApiError(404, "Record not found")
    return [status_edit(site, found, v, account) for v in selectors.history(found)]


@endpoint("GET", scope="read")
def source(request: ApiRequest, status_id: str) -> dict:
    """The text of a status as written, to edit it."""
    found = _edited(request, status_id)
    return {
        "id": str(found["id"]),
        "text": found["message"],
        "spoiler_text": found.get("spoiler_text", ""),
    }
