"""A word index in one of its older shapes (timeline.keys.OLD_SEARCH_WORD_PATTERN,
OLD_SEARCH_SET_PATTERN) is rebuilt from every status and profile, and its old keys
deleted (timeline.search.services.reindex); an index in the current shape is kept."""

from ..search import services as search
from . import Say

DESCRIPTION = "a word index of an older shape is rebuilt"


def apply(say: Say) -> None:
    if not search.old_index_exists():
        say("  The word index is current: nothing to do.")
        return
    done = search.reindex(progress=lambda line: say(f"  {line}"))
    say(f"  Indexed {done['statuses']} statuses and {done['users']} users.")
