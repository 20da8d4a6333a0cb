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


class Scorer:
    """Scores statuses for one reader (their `affinity`) at `now`, with the weights of
    settings.TOP_WEIGHTS as they are when it is made. A repost is scored as its
    original's author's status posted when reposted, with one repost of engagement (its
    original's counts are read only for the page shown), and the better of the reader's
    affinities with the two authors. (It runs on every candidate of every Top page: the
    weights and each author's affinity are worked out once.)"""

    def __init__(self, affinity: Affinity, now: float) -> None:
        weights = settings.TOP_WEIGHTS
        self.affinity, self.now = affinity, now
        self.kinds = affinity_weights()
        self.like, self.repost, self.reply, self.quote = (
            weights[kind] for kind in ("like", "repost", "reply", "quote")
        )
        self.engagement_weight = weights["engagement"]
        self.affinity_weight = weights["affinity"]
        self.freshness_weight = weights["freshness"]
        # 2^-(age / half life) as exp(age x rate), rate = -ln 2 / half life.
        self.engagement_rate = -math.log(2) / (weights["engagement_half_life_hours"] * HOUR)
        self.freshness_rate = -math.log(2) / (weights["freshness_half_life_hours"] * HOUR)
        self.affinities: dict[int, float] = {}

    def affine(self, author: int) -> float:
        """log2(1 + the reader's affinity with `author`), worked out once an author."""
        found = self.affinities.get(author)
        if found is None:
            found = self.affinities[author] = math.log2(1.0 + self.affinity.of(author, self.kinds))
        return found

    def parts(self, status: Status) -> tuple[float, float, float, int]:
        """`status`'s engagement, affinity and freshness parts (before the weights of the
        three), and the author they count for."""
        age = self.now - status["posted"]
        if age < 0:
            age = 0.0
        original_author = status.get("repost_of_uid")
        if original_author:
            author = int(original_author)
            raw = self.repost
            affine = max(self.affine(author), self.affine(status["uid"]))
        else:
            author = status["uid"]
            raw = (
                self.like * (status.get("likes") or 0)
                + self.repost * (status.get("reposts") or 0)
                + self.reply * (status.get("replies") or 0)
                + self.quote * (status.get("quotes") or 0)
            )
            affine = self.affine(author)
        engagement = math.log2(1.0 + raw * math.exp(age * self.engagement_rate)) if raw else 0.0
        return engagement, affine, math.exp(age * self.freshness_rate), author

    def total(self, engagement: float, affine: float, fresh: float) -> float:
        return (
            self.engagement_weight * engagement
            + self.affinity_weight * affine
            + self.freshness_weight * fresh
        )

    def score(self, status: Status) -> Scored:
        engagement, affine, fresh, author = self.parts(status)
        return Scored(
            status, self.total(engagement, affine, fresh), engagement, affine, fresh, author
        )

    def ranked(self, statuses: list[Status]) -> list[Status]:
        """`statuses` best first (newest first among equals): `parts` and `total`, inlined
        (a Top page scores up to TOP_CANDIDATES statuses; this is most of its own time)."""
        exp, log2, now = math.exp, math.log2, self.now
        like, repost, reply, quote = self.like, self.repost, self.reply, self.quote
        engagement_rate, freshness_rate = self.engagement_rate, self.freshness_rate
        by_engagement, by_freshness = self.engagement_weight, self.freshness_weight
        by_affinity = self.affinity_weight
        affinities, affine = self.affinities, self.affine
        keyed = []
        for status in statuses:
            age = now - status["posted"]
            if age < 0:
                age = 0.0
            if status.get("repost_of_uid"):
                engagement, affinity, fresh, _ = self.parts(status)
            else:
                known = affinities.get(status["uid"])
                affinity = affine(status["uid"]) if known is None else known
                raw = (
                    like * status["likes"]
                    + repost * status["reposts"]
                    + reply * status["replies"]
                    + quote * (status.get("quotes") or 0)
                )
                engagement = log2(1.0 + raw * exp(age * engagement_rate)) if raw else 0.0
                fresh = exp(age * freshness_rate)
            total = by_engagement * engagement + by_affinity * affinity + by_freshness * fresh
            keyed.append((total, status["id"], status))
        # By score, then id: ids are unique, so the statuses themselves are never compared.
        keyed.sort(reverse=True)
        return [entry[2] for entry in keyed]


def score(status: Status, affinity: Affinity, now: float) -> Scored:
    """`status` scored for the reader whose `affinity` is given, at `now`."""
    return Scorer(affinity, now).score(status)


def ranked(statuses: list[Status], affinity: Affinity, now: float) -> list[Scored]:
    """`statuses` scored for the reader whose `affinity` is given, at `now`, best first
    (newest first among equals)."""
    scorer = Scorer(affinity, now)
    return [scorer.score(status) for status in scorer.ranked(statuses)]


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
