"""Tag search names only the #tags public statuses use, and counts their public uses
(`timeline.keys.tag_public_uses_key`): the tags of every public status are indexed
again, and the names no public status uses (a private status's, named before) dropped
(timeline.search.services.reindex_tags)."""

from ..search import services as search
from . import Say

DESCRIPTION = "tag search names only the tags of public statuses"


def apply(say: Say) -> None:
    dropped = search.reindex_tags(progress=lambda line: say(f"  {line}"))
    say(f"  Dropped {dropped} tag names no public status uses.")
