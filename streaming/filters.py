"""Which events a stream passes on (Redis in Action 8.5.3, with the listings' bugs fixed).

A filter is a callable taking one decoded event and answering whether the client
gets it. Events are statuses (a deletion is the full status plus "deleted"), and
follow/unfollow events, which carry "event" instead of a status's fields. The
factories validate their arguments against Twitter's limits and raise ValueError
naming the problem, so a request with bad parameters never opens a stream."""

import functools
import math
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from accounts.services import LOGIN_PATTERN
from socialsite.text import words
from timeline.statuses.text import mentions, tags

from .records import Event

Filter = Callable[[Event], bool]

SAMPLE_DEFAULT_PERCENT = 10
TRACK_MAX_PHRASES = 400
TRACK_MAX_PHRASE_BYTES = 60
FOLLOW_MAX_LOGINS = 5000
LOCATION_MAX_BOXES = 25
FILTER_NAMES = ("track", "follow", "location")
FOLLOW_EVENTS = ("follow", "unfollow")


def create_filter(identifier: str, method: str, name: str | None, args: Any) -> Filter:
    """The book's factory: method "sample" (args: the request's parameters, or the
    percent itself) or "filter" with name "track", "follow" or "location" (args: a
    list of strings, or one comma-separated string)."""
    if method == "sample":
        return sample_filter(identifier, _percent(args))
    if method != "filter":
        raise ValueError(f"Unknown stream method {method!r}: use sample or filter.")
    if name == "track":
        return track_filter(_items(args))
    if name == "follow":
        return follow_filter(_items(args))
    if name == "location":
        return location_filter(_items(args))
    raise ValueError(f"Unknown filter {name!r}: use track, follow or location.")


def create_stream_filter(identifier: str, method: str, params: Mapping[str, str]) -> Filter:
    """The filter for a sample or filter request; filter.json's track, follow and
    location may be combined, and an event passes if any of them passes it."""
    if method == "sample":
        return create_filter(identifier, method, None, params)
    filters = [
        create_filter(identifier, method, name, params[name])
        for name in FILTER_NAMES
        if params.get(name)
    ]
    if not filters:
        raise ValueError("Give at least one of track, follow or location.")
    return filters[0] if len(filters) == 1 else AnyFilter(filters)


# What the hub files a filter under and looks an event up by (streaming.index): a filter
# that says what it looks for (`index_keys`) passes an event only if they share a key.
RESIDUE, WORD, LOGIN, GROUP = "residue", "word", "login", "group"
TAG, REPLY = "tag", "reply"
IndexKey = tuple[str, int | str]


def event_keys(event: Event) -> set[IndexKey]:
    """The keys of `event` for the filters' index: a status's id % 100, its words, its
    author's and its mentions' logins, its group, its #tags, the status it replies to; a
    follow event's two logins."""
    kind = event.get("event")
    if kind is not None:
        if kind not in FOLLOW_EVENTS:
            return set()
        logins = (_login(event.get("source")), _login(event.get("target")))
        return {(LOGIN, login) for login in logins if login is not None}
    keys: set[IndexKey] = set()
    residue = sample_residue(event)
    if residue is not None:
        keys.add((RESIDUE, residue))
    login = _login(event)
    if login is not None:
        keys.add((LOGIN, login))
    group = as_int(event.get("group"))
    if group is not None:
        keys.add((GROUP, group))
    parent = as_int(event.get("in_reply_to"))
    if parent is not None:
        keys.add((REPLY, parent))
    message = event.get("message")
    if isinstance(message, str):
        keys.update((WORD, word) for word in words(message))
        keys.update((LOGIN, login) for login in _mentioned(message))
        keys.update((TAG, tag) for tag in event_tags(event))
    return keys


def event_tags(status: Event) -> frozenset[str]:
    """The #tags of a status's message, lower-cased (timeline.statuses.text.tags)."""
    message = status.get("message")
    return _tagged(message) if isinstance(message, str) else frozenset()


def filed_under(match: Filter) -> frozenset[IndexKey] | None:
    """The keys `match` is filed under, or None if it must see every event (a location,
    a home timeline, any filter that doesn't say)."""
    keys = getattr(match, "index_keys", None)
    return keys() if keys is not None else None


class AnyFilter:
    """Passes an event if any of `parts` passes it."""

    def __init__(self, parts: list[Filter]) -> None:
        self.parts = parts

    def __call__(self, event: Event) -> bool:
        return any(passes(event) for passes in self.parts)

    def index_keys(self) -> frozenset[IndexKey] | None:
        keys = [filed_under(part) for part in self.parts]
        filed = [found for found in keys if found is not None]
        return None if len(filed) < len(keys) else frozenset().union(*filed)


class SampleFilter:
    """`percent` of all statuses, chosen by id % 100. The choice depends only on the
    identifier, so a client that reconnects still gets the deletions of what it got.
    The hub files these by `residues`: thousands of sample streams don't each look
    at every event."""

    def __init__(self, identifier: str, percent: int) -> None:
        residues = list(range(100))
        random.Random(str(identifier)).shuffle(residues)
        self.residues = frozenset(residues[:percent])

    def __call__(self, event: Event) -> bool:
        return sample_residue(event) in self.residues

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset((RESIDUE, residue) for residue in self.residues)


def sample_residue(event: Event) -> int | None:
    """What a sample keeps or leaves out of `event`: a status's id % 100 (None for others)."""
    status_id = as_int(event.get("id")) if "event" not in event else None
    return None if status_id is None else status_id % 100


def sample_filter(identifier: str, percent: int) -> Filter:
    return SampleFilter(identifier, percent)


def track_filter(phrases: list[str]) -> Filter:
    """Statuses containing all the words of at least one phrase, ignoring case and
    the punctuation around words."""
    if not phrases:
        raise ValueError("track needs at least one phrase.")
    if len(phrases) > TRACK_MAX_PHRASES:
        raise ValueError(f"track takes at most {TRACK_MAX_PHRASES} phrases, not {len(phrases)}.")
    groups = []
    for phrase in phrases:
        if len(phrase.encode()) > TRACK_MAX_PHRASE_BYTES:
            raise ValueError(
                f"The track phrase {phrase[:20]!r}... is longer than "
                f"{TRACK_MAX_PHRASE_BYTES} bytes."
            )
        group = words(phrase)
        if not group:
            raise ValueError(f"The track phrase {phrase!r} has no words.")
        groups.append(group)
    return TrackFilter(groups)


class TrackFilter:
    """Statuses containing every word of one of `groups` (each a phrase's words)."""

    def __init__(self, groups: list[frozenset[str]]) -> None:
        self.groups = groups

    def __call__(self, event: Event) -> bool:
        message = event.get("message")
        if "event" in event or not isinstance(message, str):
            return False
        present = words(message)
        return any(group <= present for group in self.groups)

    def index_keys(self) -> frozenset[IndexKey]:
        # A status with all of a phrase's words has any one of them: its least, say.
        return frozenset((WORD, min(group)) for group in self.groups)


def follow_filter(logins: list[str]) -> Filter:
    """Statuses posted by or @mentioning one of `logins`, and follow/unfollow events
    in which one of them follows or is followed."""
    names = [login.removeprefix("@") for login in logins]
    if not names:
        raise ValueError("follow needs at least one login.")
    if len(names) > FOLLOW_MAX_LOGINS:
        raise ValueError(f"follow takes at most {FOLLOW_MAX_LOGINS} logins, not {len(names)}.")
    for name in names:
        if not LOGIN_PATTERN.match(name):
            raise ValueError(f"{name[:40]!r} in follow is not a login.")
    return FollowFilter(frozenset(name.lower() for name in names))


class FollowFilter:
    """Statuses by or @mentioning one of `wanted` (lower-case logins), and follow events
    with one of them on either side."""

    def __init__(self, wanted: frozenset[str]) -> None:
        self.wanted = wanted

    def __call__(self, event: Event) -> bool:
        wanted = self.wanted
        kind = event.get("event")
        if kind in FOLLOW_EVENTS:
            return _login(event.get("source")) in wanted or _login(event.get("target")) in wanted
        if kind is not None:
            return False
        if _login(event) in wanted:
            return True
        message = event.get("message")
        return isinstance(message, str) and not wanted.isdisjoint(_mentioned(message))

    def index_keys(self) -> frozenset[IndexKey]:
        return frozenset((LOGIN, login) for login in self.wanted)


def passes_follow_events(match: Filter) -> bool:
    """Whether `match` can pass follow events (a follow filter, alone or combined): its
    stream must know whom its owner follows to apply timeline.audience's rule to them."""
    if isinstance(match, AnyFilter):
        return any(passes_follow_events(part) for part in match.parts)
    return isinstance(match, FollowFilter)


# The hub looks an event up by its mentions, then every follow stream it finds asks for
# them again: found once a status, as words() is.
@functools.lru_cache(maxsize=256)
def _mentioned(message: str) -> frozenset[str]:
    return frozenset(mentions(message))


@functools.lru_cache(maxsize=256)
def _tagged(message: str) -> frozenset[str]:
    return frozenset(tags(message))


def _login(user: object) -> str | None:
    login = user.get("login") if isinstance(user, dict) else None
    return login.lower() if isinstance(login, str) else None


def location_filter(numbers: list[str]) -> Filter:
    """Statuses whose "lat,lon" location lies in one of the boxes, given as
    min_lon,min_lat,max_lon,max_lat (Twitter's order: south-west corner first)."""
    if not numbers or len(numbers) % 4:
        raise ValueError("location takes boxes of 4 numbers each: min_lon,min_lat,max_lon,max_lat.")
    if len(numbers) > 4 * LOCATION_MAX_BOXES:
        raise ValueError(
            f"location takes at most {LOCATION_MAX_BOXES} boxes, not {len(numbers) // 4}."
        )
    boxes = []
    for start in range(0, len(numbers), 4):
        where = f"location box {start // 4 + 1}"
        min_lon, min_lat, max_lon, max_lat = (_number(n, where) for n in numbers[start : start + 4])
        if not -180 <= min_lon <= max_lon <= 180:
            raise ValueError(f"In {where}, longitudes must go from west to east within -180..180.")
        if not -90 <= min_lat <= max_lat <= 90:
            raise ValueError(f"In {where}, latitudes must go from south to north within -90..90.")
        boxes.append((min_lon, min_lat, max_lon, max_lat))

    def check(event: Event) -> bool:
        point = parse_location(event.get("location")) if "event" not in event else None
        if point is None:
            return False
        lat, lon = point
        return any(w <= lon <= e and s <= lat <= n for w, s, e, n in boxes)

    return check


def parse_location(value: object) -> tuple[float, float] | None:
    """(lat, lon) from a status's "lat,lon", or None if it has no usable location."""
    if not isinstance(value, str):
        return None
    parts = value.split(",")
    if len(parts) != 2:
        return None
    try:
        lat, lon = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return lat, lon


def _number(text: str, where: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"{text[:20]!r} in {where} is not a number.") from None
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]!r} in {where} is not a finite number.")
    return number


def _items(args: str | Iterable) -> list[str]:
    """The non-blank items of a comma-separated string or a list, stripped."""
    items = args.split(",") if isinstance(args, str) else (str(item) for item in args or ())
    return [item.strip() for item in items if item.strip()]


def _percent(args: object) -> int:
    """The sample percent from the request's parameters (a mapping), or given directly."""
    value = args.get("percent") if isinstance(args, Mapping) else args
    if isinstance(value, list | tuple):
        value = value[-1] if value else None
    if value is None or (isinstance(value, str) and not value.strip()):
        return SAMPLE_DEFAULT_PERCENT
    text = str(value).strip()
    # ASCII digits only: int() also takes "5_0", "+5" and other scripts' digits.
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise ValueError(f"percent must be a whole number from 1 to 100, not {value!r}.")
    percent = int(text)
    if not 1 <= percent <= 100:
        raise ValueError(f"percent must be from 1 to 100, not {percent}.")
    return percent


def as_int(value: Any) -> int | None:
    """An event's field as an int, or None if it isn't one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
