"""How Top scores a status for its reader, and the one line saying why it is there.

score = engagement x log2(1 + likes, reposts, replies and quotes, each weighted) x the
        status's decay (halving every `engagement_half_life_hours` of its age)
      + affinity x log2(1 + the reader's decayed likes, replies, reposts and profile
        visits of the author, each weighted: ranking.affinity)
      + freshness x 2^-(age / `freshness_half_life_hours`)

All weights are settings.TOP_WEIGHTS (docs/operations.md), read at call time. Chapter 1's
article score (posted time + a constant per vote) is the same idea on a linear scale; on
logs, a status's first likes count more than its hundredth, and an author one reads a
lot can't bury everyone else."""

import math
from dataclasses import dataclass

from django.conf import settings

from ..statuses.records import Status
from .affinity import KINDS, Affinity

HOUR = 3600.0
# Under this much engagement (weighted, decayed) a status is not "popular".
POPULAR = 4.0


def affinity_weights() -> dict[str, float]:
    """The weight of each kind of affinity (settings.TOP_WEIGHTS' affinity_<kind>)."""
    weights = settings.TOP_WEIGHTS
    return {kind: weights[f"affinity_{kind}"] for kind in KINDS}


@dataclass(frozen=True, slots=True)
class Scored:
    """A candidate status, its score and the parts it adds up from."""

    status: Status
    score: float
    engagement: float
    affinity: float
    freshness: float
    # Whose status counts for affinity and engagement (a repost's original's author).
    author: int


def engagement_of(status: Status, weights: dict[str, float]) -> float:
    """A status's likes, reposts, replies and quotes, weighted (not decayed)."""
    return (
        weights["like"] * int(status.get("likes") or 0)
        + weights["repost"] * int(status.get("reposts") or 0)
        + weights["reply"] * int(status.get("replies") or 0)
        + weights["quote"] * int(status.get("quotes") or 0)
    )


def score(status: Status, affinity: Affinity, now: float) -> Scored:
    """`status` scored for the reader whose `affinity` is given, at `now`. A repost is
    scored as its original's author's status posted when reposted, and one repost more
    (its original's counts are read only for the page shown)."""
    weights = settings.TOP_WEIGHTS
    age = max(0.0, now - float(status["posted"]))
    author = int(status.get("repost_of_uid") or status["uid"])
    raw = engagement_of(status, weights)
    reader_affinity = affinity.of(author, affinity_weights())
    if status.get("repost_of"):
        raw = weights["repost"]
        reader_affinity = max(reader_affinity, affinity.of(int(status["uid"]), affinity_weights()))
    decay = math.pow(0.5, age / (weights["engagement_half_life_hours"] * HOUR))
    engagement = math.log2(1.0 + raw * decay)
    affine = math.log2(1.0 + reader_affinity)
    fresh = math.pow(0.5, age / (weights["freshness_half_life_hours"] * HOUR))
    total = (
        weights["engagement"] * engagement
        + weights["affinity"] * affine
        + weights["freshness"] * fresh
    )
    return Scored(status, total, engagement, affine, fresh, author)


def ranked(statuses: list[Status], affinity: Affinity, now: float) -> list[Scored]:
    """`statuses` scored, best first (newest first among equals)."""
    scored = [score(status, affinity, now) for status in statuses]
    scored.sort(key=lambda s: (s.score, int(s.status["id"])), reverse=True)
    return scored


# What each kind of affinity says about the reader and the author.
_OFTEN = {
    "like": "you often like @{}'s posts",
    "reply": "you often reply to @{}",
    "repost": "you often repost @{}",
    "visit": "you often visit @{}'s profile",
}


def why(scored: Scored, affinity: Affinity, liked_by_followed: int, login: str) -> str:
    """The one line a Top card shows saying why it is there: what weighs most of its
    score among the reader's affinity with `login` (the author), likes by people the
    reader follows (`liked_by_followed`), its engagement, and its freshness."""
    weights = settings.TOP_WEIGHTS
    parts = {
        "affinity": weights["affinity"] * scored.affinity,
        "engagement": weights["engagement"] * scored.engagement,
        "freshness": weights["freshness"] * scored.freshness,
    }
    strongest = max(parts, key=lambda part: parts[part])
    kind = affinity.strongest(scored.author, affinity_weights())
    if strongest == "affinity" and kind is not None:
        return _OFTEN[kind].format(login)
    if liked_by_followed:
        people = "person" if liked_by_followed == 1 else "people"
        return f"liked by {liked_by_followed} {people} you follow"
    if strongest == "engagement" and 2**scored.engagement - 1 >= POPULAR:
        return "popular"
    if kind is not None and parts["affinity"] > 0:
        return _OFTEN[kind].format(login)
    return f"new from @{login}"
