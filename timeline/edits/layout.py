"""How an edited status's earlier versions are kept (versions:{id}, a list in the
status's slot, oldest first): the one place that knows it. Each is a JSON object with
short names, written by lua/edit_status.lua: `m` the message, `t` since when it was the
status's (whole microseconds: its posting, or the edit that made it), `s` its warning and
`x` its sensitive flag where it had them. The status hash itself holds the newest
version, and `edited`, when it was made (whole microseconds, as `t` of a status is)."""

import json
from dataclasses import dataclass

from ..statuses.scores import MICROSECONDS, microseconds

EDITED_FIELD = "edited"


@dataclass(frozen=True)
class Version:
    """One version of a status, as its history shows it."""

    message: str
    # Unix seconds: when this version was posted (the first) or made by an edit.
    at: float
    spoiler_text: str = ""
    sensitive: bool = False
    # Media alt texts go here once statuses have media (issue 33): a version's
    # descriptions, kept as its message is.


def edited_field(when: float) -> int:
    """The stored value of `edited` for an edit at `when` (Unix seconds)."""
    return microseconds(when)


def read_version(stored: str) -> Version:
    """A version from its JSON in the list."""
    found = json.loads(stored)
    return Version(
        message=str(found["m"]),
        at=int(found["t"]) / MICROSECONDS,
        spoiler_text=str(found.get("s", "")),
        sensitive=found.get("x") == "1",
    )
