"""The live home timeline's filter: what fan-out puts in a user's stored home, decided
event by event from what the filter keeps of that home (no Redis call an event)."""

import asyncio
import bisect
from collections.abc import Callable

from django.conf import settings

from timeline.audience import selectors as safety
from timeline.feeds import tag_fanout, visibility

from .filters import FOLLOW_EVENTS, as_int
from .records import Event
from .services import HomeState
from .viewers import BLOCK_EVENTS, named_uids


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
    deletions leave it knowing too few entries, and for a block or unblock either way
    (a block hides the other's statuses and reposts from the event on). Events it
    decides meanwhile are replayed on what is read. A deletion passes for every status
    by `uid` or those they follow, whether or not this stream passed it: the page may
    show it from before."""

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
        # The tags they follow, as last read (a follow of a tag is learnt at the next read).
        self.followed_tags: frozenset[str] = frozenset()

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
        self.followed_tags = state.followed_tags
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
            elif kind in BLOCK_EVENTS and self.uid in (named := named_uids(event)):
                self._block_changed(kind, named - {self.uid})
            return False
        status_id, author = as_int(event.get("id")), as_int(event.get("uid"))
        if status_id is None or author is None:
            return False
        if event.get("deleted"):
            self._change(self._remove, status_id)
            return author == self.uid or author in self.followed
        if event.get("updated"):
            # An edit (timeline.edits) changes no home; it passes as a deletion does,
            # for the page to redraw the card it shows, if any.
            edited_by = author == self.uid or author in self.followed
            return edited_by and safety.may_see(event, self.audience, where=safety.HOME)
        # Their own statuses go straight into their home (store_status.lua), rules aside.
        if author != self.uid:
            reached = self._group_delivers(event, author) if event.get("group") else None
            if reached is None:
                reached = author in self.followed
            if not (reached and self._delivers(event)) and not self._tag_delivers(event, author):
                return False
        # Blocks, mutes and muted words (timeline.safety), as the home page applies them.
        if not safety.may_see(event, self.audience, where=safety.HOME):
            return False
        original = as_int(event.get("repost_of")) if author != self.uid else None
        self._change(self._add, status_id, original)
        return True

    def _group_delivers(self, event: Event, author: int) -> bool:
        """Whether fan-out puts a group's post into their home (timeline.feeds.fanout):
        as a member, if they show the group's posts in home; else as a follower of its
        author, unless the group is private."""
        group = as_int(event.get("group"))
        if group in self.audience.groups:
            return group in self.audience.groups_in_home
        return author in self.followed and event.get("group_private") != "1"

    def _delivers(self, event: Event) -> bool:
        """Whether fan-out puts a status of someone they follow into their home."""
        if not visibility.reaches_followers(event):
            return False
        answered = visibility.answered_uid(event)
        if answered is not None and not visibility.reply_reaches(
            answered, self.uid, follows_answered=answered in self.followed
        ):
            return False
        original = as_int(event.get("repost_of"))
        return original is None or not visibility.repost_falls_off(
            self._rank, original, self._shown.get(original)
        )

    def _tag_delivers(self, event: Event, author: int) -> bool:
        """Whether the fan-out to the followers of its #tags puts it into their home
        (timeline.feeds.tag_fanout): a public original with a tag they follow, by someone
        they don't follow (whose own fan-out decides)."""
        if not self.followed_tags or author in self.followed:
            return False
        if not isinstance(event.get("message"), str):
            return False
        tagged = tag_fanout.tagged(event)
        return not self.followed_tags.isdisjoint(tagged)

    def _follow_changed(self, kind: str, source: object, target: object) -> None:
        if not (isinstance(source, dict) and isinstance(target, dict)):
            return
        followed = as_int(target.get("id"))
        if as_int(source.get("id")) != self.uid or followed is None:
            return
        if kind == "follow":
            self.followed.add(followed)
        else:
            self.followed.discard(followed)
        self.stale.set()

    def _block_changed(self, kind: str, others: set[int]) -> None:
        """A block either way applies at once (and again on what is read meanwhile); the
        home is read again, as the block's unfollows change it, and an unblock too."""
        if kind == "block":
            self._change(self._block, others)
        self.stale.set()

    def _block(self, others: set[int]) -> None:
        self.audience.blocked = self.audience.blocked | others

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
