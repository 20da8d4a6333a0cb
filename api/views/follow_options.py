"""Mastodon's follow options on POST /api/v1/accounts/:id/follow: `reblogs` (false:
their reposts stay out of your home) and `notify` (true: a notification each time they
post), kept by timeline.follow_sets.options and shown in the Relationship."""

from timeline.follow_sets import options as follow_options

from ..http import ApiError

BOOLEANS = {True: True, False: False, "1": True, "true": True, "0": False, "false": False}


def option_param(found: dict, name: str) -> bool | None:
    """A boolean follow option, None if not given; 422 if it isn't a boolean."""
    value = found.get(name)
    if value in (None, ""):
        return None
    if isinstance(value, str):
        value = value.lower()
    if value not in BOOLEANS:
        raise ApiError(422, f"{name} must be true or false.")
    return BOOLEANS[value]


def checked_options(found: dict) -> dict[str, bool | None]:
    """The follow's options the request gives (checked before anything changes)."""
    return {"reblogs": option_param(found, "reblogs"), "notify": option_param(found, "notify")}


def set_options(uid: int, other: int, options: dict[str, bool | None]) -> None:
    if any(value is not None for value in options.values()):
        follow_options.set_options(uid, other, **options)


def options_of(uid: int, others: list[int]) -> list[tuple[bool, bool]]:
    """(showing reblogs, notifying) of `uid`'s follow of each of `others`."""
    return follow_options.options_of(uid, others)
