"""What a process keeps of what it read (uids of logins, authors, rendered cards and
fragments, the user of a session or token): plain dicts bounded by `keep`."""


def keep(kept: dict, key, value, most: int) -> None:
    """Puts `value` under `key` in `kept`, a dict of at most `most` entries (none when
    `most` is 0), emptied when full. Forgetting all at once costs a read nothing, where
    tracking the least used would cost every read; what is forgotten is read again in
    the round trip that reads it anyway."""
    if len(kept) >= most:
        kept.clear()
    if most:
        kept[key] = value
