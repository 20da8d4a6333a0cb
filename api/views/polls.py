"""Polls: reading one and voting in it (Mastodon's /api/v1/polls), and the `poll`
parameters of a new status. A poll's id is its status's."""

from typing import Any

from timeline.feeds.selectors import shown_status
from timeline.polls import services as polls
from timeline.polls.selectors import poll_entity

from ..http import ApiError, ApiRequest, caller_uid, endpoint, id_param, limit_rate, params, viewer

TRUE = {True, "true", "1", "on"}


def poll_param(found: dict[str, Any]) -> dict[str, polls.PollSpec]:
    """`poll=` for posting from a new status's parameters: a JSON object's `poll`
    ({"options", "expires_in", "multiple", "hide_totals"}) or a form's `poll[options][]`,
    `poll[expires_in]`, `poll[multiple]`, `poll[hide_totals]`; {} for none. 422 saying
    what is wrong."""
    given = found.get("poll")
    if isinstance(given, dict):
        spec = given
    elif given in (None, ""):
        spec = {
            "options": found.get("poll[options][]"),
            "expires_in": found.get("poll[expires_in]"),
            "multiple": found.get("poll[multiple]"),
            "hide_totals": found.get("poll[hide_totals]"),
        }
        if spec["options"] is None:
            return {}
    else:
        raise ApiError(422, "A poll is an object: options, expires_in, multiple, hide_totals.")
    options = spec.get("options")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise ApiError(422, "Validation failed: a poll's options are a list of texts.")
    if spec.get("expires_in") in (None, ""):
        raise ApiError(422, "Validation failed: a poll needs expires_in (seconds).")
    try:
        return {
            "poll": polls.check_poll(
                options,
                spec["expires_in"],
                multiple=spec.get("multiple") in TRUE,
                hide_totals=spec.get("hide_totals") in TRUE,
            )
        }
    except polls.PollError as error:
        raise ApiError(422, f"Validation failed: {error}") from None


def shown_poll(request: ApiRequest, poll_id: int) -> dict:
    """The Poll entity as the caller sees it; 404 if its status is gone, hidden from
    them or has no poll."""
    found = shown_status(poll_id, viewer=viewer(request))
    entity = poll_entity(found) if found else None
    if entity is None:
        raise ApiError(404, "Record not found")
    return entity


@endpoint("GET", public=True, user=False)
def poll(request: ApiRequest, poll_id: str) -> dict:
    return shown_poll(request, id_param(poll_id))


@endpoint("POST", scope="write")
def votes(request: ApiRequest, poll_id: str) -> dict:
    target = id_param(poll_id)
    found = params(request)
    choices = found.get("choices[]", found.get("choices"))
    if choices is None:
        raise ApiError(422, "Validation failed: choices are required.")
    if not isinstance(choices, list):
        choices = [choices]
    limit_rate(request, "poll_votes")
    try:
        polls.vote(caller_uid(request), target, choices)
    except polls.PollError as error:
        raise ApiError(422, f"Validation failed: {error}") from None
    return shown_poll(request, target)
