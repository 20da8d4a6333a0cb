"""How a status is laid out in its hash (status:{id}): the one place that knows it.

Twenty million statuses make a site of a million users, so a status's few bytes count.
Its key holds its id, so the hash doesn't. Its posted time is stored as whole
microseconds, an integer that a compact hash keeps in 9 bytes against the 18-19
characters of a float's text, under a one-letter name (POSTED_FIELD); its visibility, if
not public, in one letter under another (statuses.visibility). Every other field is
stored as the status's dict has it. (Statuses stored before this, with an `id` field
and `posted` as seconds in text, are rewritten by data migration 0007.)"""

import time
from collections.abc import Mapping
from typing import Any

from .scores import MICROSECONDS, microseconds
from .visibility import read_visibility, stored_visibility

POSTED_FIELD = "t"
# The fields a reader of the posted time alone asks for (HMGET).
POSTED_FIELDS = (POSTED_FIELD,)
# Fields of the status's dict that the hash doesn't store as they are.
DERIVED_FIELDS = frozenset({"id", "posted"})


def exact_posted(posted: float) -> float:
    """`posted` (Unix seconds) to the microsecond, as a status stores it: a status's
    timeline entries are scored from this, so the status read back has the time they
    were scored from."""
    return microseconds(posted) / MICROSECONDS


def posted_now() -> float:
    """Now, as a new status's posted time (`exact_posted`)."""
    return exact_posted(time.time())


def stored_fields(status: Mapping[str, Any]) -> dict[str, Any]:
    """The hash's fields for `status` (a dict with at least id, uid, login, message,
    posted), for an HSET."""
    fields = {name: value for name, value in status.items() if name not in DERIVED_FIELDS}
    # A status's visibility is kept in one letter (statuses.visibility).
    stored_visibility(fields)
    return fields | posted_field(float(status["posted"]))


def posted_field(posted: float) -> dict[str, int]:
    """The field holding posted time `posted` (Unix seconds), for an HSET."""
    return {POSTED_FIELD: microseconds(posted)}


def read_posted(stored: str | None) -> float | None:
    """The posted time (Unix seconds) from the POSTED_FIELDS of a hash (as HMGET
    returns them); None if the status is gone."""
    return None if stored is None else int(stored) / MICROSECONDS


def status_fields(status_id: int | str, fields: dict[str, str]) -> dict[str, Any]:
    """The status's dict from its hash's fields (not empty): its id from its key, its
    posted time as Unix seconds (a float), every other field as stored (text)."""
    status: dict[str, Any] = dict(fields)
    status["posted"] = read_posted(status.pop(POSTED_FIELD, None))
    status["id"] = int(status_id)
    read_visibility(status)
    return status
