"""Redis keys of polls. A poll's options, counts and state are fields of its status's
hash (timeline.statuses.records); its voters are a hash beside it, in its slot, so a
vote is one script. The voter's own copy of their votes, which pages read with their
other marks, is timeline.keys.poll_votes_key (in the voter's slot)."""


def poll_voters_key(status_id: int | str) -> str:
    """uid -> the options they chose ("0,2"): who voted in status `status_id`'s poll."""
    return f"poll_voters:{{{status_id}}}"


POLL_VOTERS_PATTERN = poll_voters_key("*")


def status_id_in_voters_key(key: str) -> int:
    """The status id in a key made by `poll_voters_key`."""
    return int(key.removeprefix("poll_voters:{").removesuffix("}"))
