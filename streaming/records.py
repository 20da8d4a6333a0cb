"""The stream's event record, as decoded from the JSON published on its channels."""

from typing import Any

from timeline.statuses.records import Status


class Event(Status, total=False):
    """An event: a status posted, or deleted (`deleted`), or something a user did
    (`event`: a follow, a like...) with `source` and `target` ({"id", "login"}) and none
    of a status's fields; a private event of the site's pages names its readers (`to`)."""

    deleted: bool
    event: str
    source: dict[str, Any]
    target: dict[str, Any]
    target_object: dict[str, Any]
    created: float
    to: list[int]
