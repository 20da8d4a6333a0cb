"""Following sets kept in one key (before buckets) that hold more than FOLLOWING_SPLIT
move into buckets (timeline.follow_sets.following), each move one script in the user's slot."""

from ..follow_sets import following
from . import Say

DESCRIPTION = "big following sets move into buckets"


def apply(say: Say) -> None:
    split, moved = following.split_every_big_set()
    say(f"  Moved {moved} follows of {split} following sets into buckets.")
