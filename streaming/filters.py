"""Which events a stream passes on (Redis in Action 8.5.3, with the listings' bugs fixed).

A filter is a callable taking one decoded event and answering whether the client
gets it. Events are statuses (a deletion is the full status plus "deleted"), and
follow/unfollow events, which carry "event" instead of a status's fields. The
factories validate their arguments against Twitter's limits and raise ValueError
naming the problem, so a request with bad parameters never opens a stream."""

import asyncio
import bisect
import functools
import math
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings

from accounts.services import LOGIN_PATTERN
from socialsite.text import words
from timeline.audience import selectors as safety
from timeline.feeds import visibility
from timeline.statuses.text import mentions

from .records import Event
from .services import HomeState

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
RESIDUE, WORD, LOGIN = "residue", "word", "login"
IndexKey = tuple[str, int | str]


def event_keys(event: Event) -> set[IndexKey]:
    """The keys of `event` for the filters' index: a status's id % 100, its words, its
    author's and its mentions' logins; a follow event's two logins."""
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
    message = event.get("message")
    if isinstance(message, str):
        keys.update((WORD, word) for word in words(message))
        keys.update((LOGIN, login) for login in _mentioned(message))
    return keys


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
    status_id = _int(event.get("id")) if "event" not in event else None
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


# The hub looks an event up by its mentions, then every follow stream it finds asks for
# them again: found once a status, as words() is.
@functools.lru_cache(maxsize=256)
def _mentioned(message: str) -> frozenset[str]:
    return frozenset(mentions(message))


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


# Where the live home can still differ from the stored one, each a race with a narrow
# window or a change to home that no event tells:
# - While the stream opens (before its first read of home), only the user's own
#   statuses pass: the people they follow aren't known yet.
# - Followers past the first POSTS_PER_PASS get a status from a background job, after
#   its event: if home changes in between, the job may apply the repost rule differently.
# - A deleted status leaves a follower's home when the worker's retraction job runs, but
#   the filter forgets it at once; until the job, a repost may be let in live and not
#   stored (if the deleted status was its original or counted repost, or the deletion
#   brought its original back within the newest REPOST_FALLOFF).
# - Two statuses published at the same moment by different requests may be delivered in
#   one order and published in the other (say, two reposts of one original).
# - After an unfollow, a background job refills home (refill_timeline.lua, which applies
#   neither rule), with no event: the filter learns of what it added at its next read.
# - Between a follow or unfollow and the read it causes (1 round trip), statuses are
#   decided on what the filter knew before.
class HomeFilter:
    """The live home timeline of `uid`: what fan-out puts in their stored home, as it does.

    Their own statuses, and those of the users they follow as timeline.feeds.fanout delivers
    them: a reply only to those who follow the user it answers (or are that user), a
    repost only if home doesn't show its original among its REPOST_FALLOFF newest entries.
    For the repost rule it keeps home's newest entries itself, read when the stream opens
    (`load`) and kept current from the events it passes: no event costs a Redis call.

    The follow/unfollow events `uid` makes it reads but never passes on: they change home
    in ways no event tells, so it asks to be read again (`stale`), as it does when
    deletions leave it knowing too few entries. Events it decides meanwhile are replayed
    on what is read. A deletion passes for every status by `uid` or those they follow,
    whether or not this stream passed it: the page may show it from before."""

    def __init__(self, uid: int) -> None:
        self.uid = uid
        self.followed: set[int] = set()
        # Home trims to HOME_TIMELINE_SIZE; beyond the rule's reach, entries are kept only
        # so that deletions don't leave fewer than REPOST_FALLOFF known.
        self.keep = min(2 * visibility.REPOST_FALLOFF, settings.HOME_TIMELINE_SIZE)
        self.stale = asyncio.Event()
        # Negated ids, ascending: newest first, as a home reads (timeline.feeds.home_list).
        self._newest: list[int] = []
        self._complete = True  # whether _newest is all of home
        self._shown: dict[int, int] = {}  # original id -> the repost home took in for it
        self._originals: dict[int, int] = {}  # the reverse, to forget it with the repost
        self._replay: list[tuple] | None = None
        self.audience = safety.Audience(uid)

    def begin_load(self) -> None:
        """Marks the start of a read of home: what passes from now on is replayed on it."""
        self.stale.clear()
        self._replay = []

    def load(self, state: HomeState) -> None:
        """Takes what was read of home, with what passed since begin_load on top."""
        replay, self._replay = self._replay or [], None
        self.followed = set(state.followed)
        self.audience = state.audience
        self.audience.follows = self.followed
        self._newest = [-status_id for status_id in state.newest]
        self._complete = state.complete
        self._shown = dict(state.shown)
        self._originals = {repost: original for original, repost in state.shown.items()}
        for change, *args in replay:
            change(*args)

    def __call__(self, event: Event) -> bool:
        kind = event.get("event")
        if kind is not None:
            if kind in FOLLOW_EVENTS:
                self._follow_changed(kind, event.get("source"), event.get("target"))
            return False
        status_id, author = _int(event.get("id")), _int(event.get("uid"))
        if status_id is None or author is None:
            return False
        if event.get("deleted"):
            self._change(self._remove, status_id)
            return author == self.uid or author in self.followed
        # Their own statuses go straight into their home (store_status.lua), rules aside.
        if author != self.uid and (author not in self.followed or not self._delivers(event)):
            return False
        # Blocks, mutes and muted words (timeline.safety), as the home page applies them.
        if not safety.may_see(event, self.audience, where=safety.HOME):
            return False
        original = _int(event.get("repost_of")) if author != self.uid else None
        self._change(self._add, status_id, original)
        return True

    def _delivers(self, event: Event) -> bool:
        """Whether fan-out puts a status of someone they follow into their home."""
        answered = visibility.answered_uid(event)
        if answered is not None and not visibility.reply_reaches(
            answered, self.uid, follows_answered=answered in self.followed
        ):
            return False
        original = _int(event.get("repost_of"))
        return original is None or not visibility.repost_falls_off(
            self._rank, original, self._shown.get(original)
        )

    def _follow_changed(self, kind: str, source: object, target: object) -> None:
        if not (isinstance(source, dict) and isinstance(target, dict)):
            return
        followed = _int(target.get("id"))
        if _int(source.get("id")) != self.uid or followed is None:
            return
        if kind == "follow":
            self.followed.add(followed)
        else:
            self.followed.discard(followed)
        self.stale.set()

    def _change(self, change: Callable, *args: object) -> None:
        change(*args)
        if self._replay is not None:
            self._replay.append((change, *args))

    def _rank(self, status_id: int) -> int | None:
        """Its place in home from the newest (0), as a home in order has it (LPOS); None if
        not known."""
        rank = bisect.bisect_left(self._newest, -status_id)
        return rank if rank < len(self._newest) and self._newest[rank] == -status_id else None

    def _add(self, status_id: int, original: int | None) -> None:
        """Records a status entering home (`original`: a repost the repost rule let in)."""
        if self._rank(status_id) is not None:
            return
        if not self._complete and len(self._newest) >= self.keep and -status_id > self._newest[-1]:
            return  # older than everything known: beyond what is kept
        bisect.insort(self._newest, -status_id)
        if original is not None:
            self._shown[original] = status_id
            self._originals[status_id] = original
        while len(self._newest) > self.keep:
            self._forget(-self._newest.pop())
            self._complete = False

    def _remove(self, status_id: int) -> None:
        """Records a status leaving home (deleted: retracted by fan-out's job)."""
        rank = self._rank(status_id)
        if rank is None:
            return
        del self._newest[rank]
        self._forget(status_id)
        if not self._complete and len(self._newest) < visibility.REPOST_FALLOFF:
            self.stale.set()

    def _forget(self, status_id: int) -> None:
        original = self._originals.pop(status_id, None)
        if original is not None and self._shown.get(original) == status_id:
            del self._shown[original]


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
