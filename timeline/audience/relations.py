"""How a viewer stands to other users (blocks either way, mutes, follow requests), for
their profiles and buttons: reads in the viewer's slot alone."""

import time
from dataclasses import dataclass

from socialsite.redis import Pipe, Reply, get_redis

from .. import keys


@dataclass(frozen=True)
class Relation:
    """How a viewer stands to another user, for their profile and its buttons."""

    blocking: bool = False  # the viewer blocks them
    blocked_by: bool = False  # they block the viewer
    muting: bool = False
    requested: bool = False  # the viewer asked to follow them (a private account)
    requested_by: bool = False  # they asked to follow the viewer


@dataclass(frozen=True, slots=True)
class RelationRead:
    """The reads `queue_relation` queued, all in the viewer's slot."""

    blocking: Reply
    blocked_by: Reply
    mute_ends: Reply
    requested: Reply

    @property
    def relation(self) -> Relation:
        mute_ends = self.mute_ends.value
        return Relation(
            blocking=self.blocking.value is not None,
            blocked_by=self.blocked_by.value is not None,
            muting=mute_ends is not None and float(mute_ends) > time.time(),
            requested=self.requested.value is not None,
        )


def queue_relation(pipe: Pipe, viewer: int, uid: int) -> RelationRead:
    """Queues the reads of how `viewer` stands to `uid` (its `relation`)."""
    return RelationRead(
        pipe.zscore(keys.blocks_key(viewer), uid),
        pipe.zscore(keys.blocked_by_key(viewer), uid),
        pipe.zscore(keys.mutes_key(viewer), uid),
        pipe.zscore(keys.requested_key(viewer), uid),
    )


def relations(viewer: int, others: list[int]) -> list[Relation]:
    """How `viewer` stands to each of `others`: 1 round trip, all in the viewer's slot."""
    if not others:
        return []
    pipe = get_redis().pipeline(transaction=False)
    for key in (
        keys.blocks_key,
        keys.blocked_by_key,
        keys.mutes_key,
        keys.requested_key,
        keys.follow_requests_key,
    ):
        pipe.zmscore(key(viewer), others)
    blocks, blocked_by, mutes, requested, requested_by = pipe.execute()
    now = time.time()
    return [
        Relation(
            blocking=blocks[i] is not None,
            blocked_by=blocked_by[i] is not None,
            muting=mutes[i] is not None and mutes[i] > now,
            requested=requested[i] is not None,
            requested_by=requested_by[i] is not None,
        )
        for i in range(len(others))
    ]
