"""Filters (accounts.filters), Mastodon's v2 API and v1's list of keywords: the same
filters the settings page shows, the muted words among them."""

import re
from collections.abc import Callable
from functools import wraps

from accounts import filters
from timeline.feeds.selectors import shown_status

from .. import entities
from ..filtering import filter_entity, keyword_entity, status_entity
from ..http import (
    ApiError,
    ApiRequest,
    ApiResult,
    caller_uid,
    check_caller,
    endpoint,
    form_pairs,
    id_param,
    limit_rate,
    params,
)

NESTED = re.compile(r"^keywords_attributes\[(\d*)\]\[(\w+)\]$")


def handled(view: Callable) -> Callable:
    """NoSuchFilter is 404."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except filters.NoSuchFilter as error:
            raise ApiError(404, str(error)) from None

    return wrapped


def keywords_attributes(request: ApiRequest, found: dict) -> list[dict]:
    """keywords_attributes from JSON (a list of objects, or an object by index) or a
    form (keywords_attributes[][keyword]=..., keywords_attributes[0][keyword]=...)."""
    given = found.get("keywords_attributes")
    if isinstance(given, dict):
        given = list(given.values())
    if given is not None:
        if not isinstance(given, list) or not all(isinstance(item, dict) for item in given):
            raise ApiError(422, "keywords_attributes is a list of keywords.")
        return given
    items: list[dict] = []
    by_index: dict[str, dict] = {}
    for name, value in form_pairs(request):
        nested = NESTED.match(name)
        if not nested:
            continue
        index, field = nested.groups()
        if index:
            item = by_index.setdefault(index, {})
            if not item:
                items.append(item)
        else:
            if not items or field in items[-1]:
                items.append({})
            item = items[-1]
        item[field] = value
    return items


def context_param(request: ApiRequest, found: dict) -> object:
    given = found.get("context[]", found.get("context"))
    return given


def filter_changes(request: ApiRequest, found: dict) -> dict:
    changes = {}
    for name in ("title", "filter_action", "expires_in"):
        if name in found:
            changes[name] = found[name]
    if "context[]" in found or "context" in found:
        changes["context"] = context_param(request, found)
    return changes


@endpoint("GET", "POST", scope="read")
@handled
def filters_view(request: ApiRequest) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        return [filter_entity(found) for found in filters.list_filters(uid)]
    writing(request)
    found = params(request)
    attributes = keywords_attributes(request, found)
    made = filters.create_filter(
        uid,
        title=found.get("title"),
        context=context_param(request, found),
        filter_action=found.get("filter_action") or "warn",
        expires_in=found.get("expires_in"),
        keywords=[
            (item.get("keyword"), filters.truthy(item.get("whole_word", True)))
            for item in attributes
        ],
    )
    return filter_entity(made)


def writing(request: ApiRequest) -> None:
    """A change: the `write` scope, and the `filter_changes` rate limit."""
    check_caller(request, "write", user=True, public=False)
    limit_rate(request, "filter_changes")


@endpoint("GET", "PUT", "DELETE", scope="read")
@handled
def one_filter(request: ApiRequest, filter_id: str) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        return filter_entity(filters.get_filter(uid, filter_id))
    writing(request)
    if request.method == "DELETE":
        filters.delete_filter(uid, filter_id)
        return {}
    found = params(request)
    changed = filters.update_filter(
        uid,
        filter_id,
        changes=filter_changes(request, found),
        keywords_attributes=keywords_attributes(request, found),
    )
    return filter_entity(changed)


@endpoint("GET", "POST", scope="read")
@handled
def keywords(request: ApiRequest, filter_id: str) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        return [keyword_entity(k) for k in filters.get_filter(uid, filter_id)["keywords"]]
    writing(request)
    found = params(request)
    made = filters.add_keyword(
        uid, filter_id, found.get("keyword"), filters.truthy(found.get("whole_word", True))
    )
    return keyword_entity(made)


@endpoint("GET", "PUT", "DELETE", scope="read")
@handled
def one_keyword(request: ApiRequest, keyword_id: str) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        return keyword_entity(filters.find_part(uid, "keywords", keyword_id)[1])
    writing(request)
    if request.method == "DELETE":
        filters.delete_part(uid, "keywords", keyword_id)
        return {}
    found = params(request)
    changes = {name: found[name] for name in ("keyword", "whole_word") if name in found}
    return keyword_entity(filters.update_keyword(uid, keyword_id, changes))


@endpoint("GET", "POST", scope="read")
@handled
def statuses(request: ApiRequest, filter_id: str) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        return [status_entity(s) for s in filters.get_filter(uid, filter_id)["statuses"]]
    writing(request)
    filters.get_filter(uid, filter_id)
    status_id = params(request).get("status_id")
    if status_id in (None, ""):
        raise ApiError(422, "status_id is required.")
    target = id_param(status_id)
    if shown_status(target, viewer=uid) is None:
        raise ApiError(404, "Record not found")
    return status_entity(filters.add_status(uid, filter_id, target))


@endpoint("GET", "DELETE", scope="read")
@handled
def one_status(request: ApiRequest, status_filter_id: str) -> ApiResult:
    uid = caller_uid(request)
    if request.method == "GET":
        return status_entity(filters.find_part(uid, "statuses", status_filter_id)[1])
    writing(request)
    filters.delete_part(uid, "statuses", status_filter_id)
    return {}


@endpoint("GET", scope="read")
def filters_v1(request: ApiRequest) -> list[dict]:
    """Mastodon's v1 filters: each keyword of the caller's filters as a phrase (read
    only here: filters are made and changed with v2 or on the settings page)."""
    return [
        {
            "id": keyword["id"],
            "phrase": keyword["keyword"],
            "context": found["context"],
            "whole_word": keyword["whole_word"],
            "expires_at": entities.iso(found["expires_at"]) if found.get("expires_at") else None,
            "irreversible": found["filter_action"] == "hide",
        }
        for found in filters.list_filters(caller_uid(request))
        for keyword in found["keywords"]
    ]
