"""Whom a stream is for, and what timeline.audience's rule lets it carry to them.

Every stream of the streaming API and the client API has an owner (a stream key's, or
the logged-in user's), and the hub asks the owner's Viewer about each event its filter
passes: a status goes through `may_see` as on the global timeline (never a private
account's, never one of a user blocking or blocked by the owner), a follow event
through `may_see_follow`. The live home timeline applies the rule in its own filter
(streaming.home_filter). What the rule needs of the owner is read once, when the stream
opens (streaming.services.viewer_audience, after the stream joined the hub, so a change
made meanwhile is in the read or in the events), and kept current from the events that
change it: their own follows and unfollows, and blocks either way, applied as the event
passes, before any status published after it. An unblock is not told by the event alone
(either may still block the other): it asks for the audience to be read again (`stale`:
the hub reads it), and the stream hides what it hid until then (the safe side)."""

from collections.abc import Mapping
from typing import Any

from timeline.audience import selectors as safety
from timeline.keys import PRIVATE_FIELD
from timeline.statuses.visibility import is_unlisted

from .filters import FOLLOW_EVENTS, as_int
from .records import Event

BLOCK_EVENTS = ("block", "unblock")
# The events that change what the rule needs of the users they name.
AUDIENCE_EVENTS = (*FOLLOW_EVENTS, *BLOCK_EVENTS)


class Viewer:
    """A stream owner's `audience` (None: a visitor, who sees only public statuses and
    follows between public accounts)."""

    def __init__(
        self,
        audience: safety.Audience | None = None,
        *,
        with_follows: bool = False,
        where: str = safety.GLOBAL,
    ) -> None:
        self.audience = audience if audience is not None else safety.Audience(None)
        # Where the statuses are shown: global (never a private one, as the public
        # streams), or anywhere (a page's live timeline: a private one to its followers).
        self.where = where
        # Whether a read of the audience takes whom the owner follows (a follow filter's).
        self.with_follows = with_follows
        self.ready = True  # whether the owner's audience was read once
        self.stale = False  # whether it must be read again
        # The events learnt while the owner's audience is being read (None: it isn't).
        self._replay: list[Event] | None = None

    @classmethod
    def loading(cls, uid: int, *, with_follows: bool, where: str = safety.GLOBAL) -> "Viewer":
        """The viewer `uid`, whose audience is yet to be read (`begin_load`, `load`):
        until then their stream carries nothing (it is not open yet for its client)."""
        viewer = cls(safety.Audience(uid), with_follows=with_follows, where=where)
        viewer.ready = False
        viewer.begin_load()
        return viewer

    def begin_load(self) -> None:
        """Marks the start of a read of the owner's audience: what is learnt from now on
        is applied again on what is read."""
        self.stale = False
        self._replay = []

    def load(self, audience: safety.Audience) -> None:
        """Takes the owner's audience as read, with what was learnt since on top."""
        replay, self._replay = self._replay or [], None
        self.audience = audience
        self.ready = True
        for event in replay:
            self.learn(event)

    @property
    def uid(self) -> int | None:
        return self.audience.viewer

    def sees(self, event: Event) -> bool:
        """Whether the owner may get `event`, which their stream's filter passed. A
        deletion passes (it names only the id, and goes to those whose filter passed the
        status); events other than statuses and follows are the filters' to decide."""
        if not self.ready:
            return False
        if event.get("deleted"):
            return True
        kind = event.get("event")
        if kind is None:
            # As audience.visible skips the rule for a reader who shuns no one: then
            # only privacy hides a status (and thousands of streams ask about each).
            if self.where == safety.GLOBAL and is_unlisted(event):
                return False  # an unlisted status is never on the public streams (vis)
            private = safety.is_private(event)
            if as_int(event.get("uid")) is None or not (
                self.audience.shuns_anyone() or (private and self.where != safety.GLOBAL)
            ):
                return not private
            return safety.may_see(event, self.audience, where=self.where)
        if kind in FOLLOW_EVENTS:
            source, target = event.get("source"), event.get("target")
            if not (isinstance(source, dict) and isinstance(target, dict)):
                return False
            if safety.is_private(event) and not (_private(source) or _private(target)):
                # Published before the sides were marked: "private" meant the followed's.
                target = {**target, PRIVATE_FIELD: "1"}
            return safety.may_see_follow(source, target, self.audience)
        return True

    def learn(self, event: Event) -> bool:
        """Takes in an event naming the owner (AUDIENCE_EVENTS): a follow or unfollow
        they made, a block either way; True if their audience must be read again (an
        unblock either way)."""
        if self._replay is not None:
            self._replay.append(event)
        kind = event.get("event")
        source, target = _uid(event.get("source")), _uid(event.get("target"))
        viewer = self.uid
        if viewer is None or source is None or target is None:
            return self.stale
        if kind == "block" and viewer in (source, target):
            other = target if source == viewer else source
            self.audience.blocked = self.audience.blocked | {other}
        elif kind == "follow" and source == viewer:
            self.audience.follows.add(target)
        elif kind == "unfollow" and source == viewer:
            self.audience.follows.discard(target)
        elif kind == "unblock" and viewer in (source, target):
            self.stale = True
        return self.stale


def named_uids(event: Event) -> set[int]:
    """The uids an AUDIENCE_EVENT names (none for any other event)."""
    if event.get("event") not in AUDIENCE_EVENTS:
        return set()
    found = {_uid(event.get("source")), _uid(event.get("target"))}
    return {uid for uid in found if uid is not None}


def _private(user: Mapping[str, Any]) -> bool:
    return safety.is_private_value(user.get(PRIVATE_FIELD))


def _uid(user: object) -> int | None:
    return as_int(user.get("id")) if isinstance(user, dict) else None
