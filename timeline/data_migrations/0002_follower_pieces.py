"""Follower sets kept in one key (before pieces) that hold more than FOLLOWERS_PIECE_SIZE
are cut into pieces (timeline.follow_sets.followers), each cut one script in the user's slot."""

from ..follow_sets import followers as pieces
from . import Say

DESCRIPTION = "big follower sets are cut into pieces"


def apply(say: Say) -> None:
    cut, made = pieces.split_every_big_set()
    say(f"  Cut {cut} follower sets into {made} more pieces.")
