"""Filters (accounts.filters) as the client API shows them: the Filter entity and its
parts, and each Status entity's `filtered`, the caller's filters it matches (Mastodon's
FilterResults), whatever the context: apps decide by each filter's `context` how to show
it (warn or hide)."""

from collections.abc import Iterable

from accounts import filters
from timeline.statuses.records import Status

from .entities import iso


def keyword_entity(keyword: dict) -> dict:
    return {"id": keyword["id"], "keyword": keyword["keyword"], "whole_word": keyword["whole_word"]}


def status_entity(item: dict) -> dict:
    return {"id": item["id"], "status_id": item["status_id"]}


def filter_entity(found: dict) -> dict:
    ends = found.get("expires_at")
    return {
        "id": found["id"],
        "title": found["title"],
        "context": found["context"],
        "expires_at": iso(ends) if ends else None,
        "filter_action": found["filter_action"],
        "keywords": [keyword_entity(k) for k in found["keywords"]],
        "statuses": [status_entity(s) for s in found["statuses"]],
    }


def filter_results(results: list[dict]) -> list[dict]:
    """A Status entity's `filtered`: Mastodon's FilterResults."""
    return [
        {
            "filter": filter_entity(result["filter"]),
            "keyword_matches": result["keyword_matches"] or None,
            "status_matches": result["status_matches"] or None,
        }
        for result in results
    ]


def with_filtered(
    viewer: int | None,
    shown: list[dict],
    found: Iterable[Status],
    read: Iterable[dict] | None = None,
) -> list[dict]:
    """`shown` (Status entities of the statuses `found`) each with `filtered`: the
    viewer's filters it matches; `read`: those filters if the page read them already,
    else they are read (1 round trip; none for a visitor)."""
    if not viewer or not shown:
        return shown
    every = filters.list_filters(viewer) if read is None else list(read)
    active = [f for f in every if filters.is_active(f)]
    if not active:
        return shown
    by_id = {}
    for status in found:
        by_id[str(status["id"])] = status
        original = status.get("original")
        if original is not None:
            by_id[str(original["id"])] = original
    for entity in shown:
        for each in (entity, entity.get("reblog")):
            if each and each["id"] in by_id:
                each["filtered"] = filter_results(filters.matches(by_id[each["id"]], active))
    return shown
