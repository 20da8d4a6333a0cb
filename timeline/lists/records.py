"""The list record, as decode_list makes it from the list's hash."""

from typing import Required, TypedDict


class TimelineList(TypedDict, total=False):
    """A list of users whose statuses make a timeline."""

    id: Required[int]
    owner: Required[int]
    name: Required[str]
    # How many members it has.
    members: Required[int]
    # Unix seconds.
    created: Required[float]
    private: Required[bool]
    # Whether the user asked about is on it (decode_lists with a member_uid).
    has_member: bool
