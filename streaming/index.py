"""The hub's listeners filed by what their filters look for, so that an event finds the
streams that may want it without asking each stream.

A filter that says what it looks for (streaming.filters: a sample's residues of id %
100, a track's words, a follow's logins) is filed under those keys; an event is looked
up by its own keys (`filters.event_keys`), and only the listeners found (each once,
however many keys they share with it) have their filter asked. Filters that don't say
(location boxes, live home timelines, any other callable) are asked about every event,
as all were before: few streams use them, and a home filter must see every event to
keep its picture of home current."""

from collections.abc import Iterable
from typing import Generic, Protocol, TypeVar

from .filters import Filter, IndexKey, event_keys, filed_under
from .records import Event


class Filed(Protocol):
    match: Filter


F = TypeVar("F", bound=Filed)


class FilterIndex(Generic[F]):
    """Listeners by the keys of their filters, and those asked about every event."""

    def __init__(self) -> None:
        self.by_key: dict[IndexKey, set[F]] = {}
        self.scanned: set[F] = set()
        self._keys: dict[F, frozenset[IndexKey]] = {}

    def add(self, listener: F) -> None:
        keys = filed_under(listener.match)
        if keys is None:
            self.scanned.add(listener)
            return
        self._keys[listener] = keys
        for key in keys:
            self.by_key.setdefault(key, set()).add(listener)

    def remove(self, listener: F) -> None:
        """Forgets `listener` (nothing if it isn't filed)."""
        self.scanned.discard(listener)
        for key in self._keys.pop(listener, ()):
            same = self.by_key[key]
            same.discard(listener)
            if not same:
                del self.by_key[key]

    def candidates(self, event: Event) -> Iterable[F]:
        """The listeners whose filter may pass `event`, each once: every scanned one, and
        the filed ones sharing a key with it."""
        by_key = self.by_key
        if not by_key:  # only scanned listeners (homes, locations): the event's keys can't matter
            return list(self.scanned)
        found = [by_key[key] for key in event_keys(event) if key in by_key]
        # A new collection each time: the hub may drop a listener while going through it.
        if not found:
            return list(self.scanned)
        if len(found) == 1 and not self.scanned:
            return list(found[0])
        return self.scanned.union(*found)
