"""The offline evaluation of Top (timeline.ranking): does ordering a home by importance
put what its reader engages with first?

A seeded network (fixed seed): AUTHORS authors, each with a synthetic interest per
reader (a few favourites each reader engages with often, the rest seldom) and a CROWD of
others who like statuses by each status's own appeal. First a past: each author posts
PAST_EACH statuses, each reader likes, replies to and reposts them and visits profiles,
each drawn from their interest in the author, through the site's own services (so their
affinity is kept as it is live); the past statuses are then deleted (they are older than
Top's window). Then the present: each author posts NOW_EACH statuses in a shuffled
order, the crowd likes them, and whether each reader would engage with each is drawn
from their interest in its author and its appeal. Measured: of the statuses a reader
would engage with, the share in the first FIRST of their home by Top and by Latest."""

import random
from dataclasses import dataclass

from django.core.management import call_command

from accounts.services import get_user
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.posting import services as posting
from timeline.ranking import selectors as ranking
from timeline.reactions import services as reactions

from . import seed

SEED = 31
FIRST = 20
AUTHORS = 60
FAVOURITES = 8  # authors of high interest, per reader
READERS = 3
CROWD = 30
PAST_EACH = 4
NOW_EACH = 4


@dataclass
class Evaluation:
    """Summed over the readers: statuses engaged with, and how many of them each order's
    first FIRST held; and the statuses each home held."""

    engaged: int = 0
    in_top: int = 0
    in_latest: int = 0
    home: int = 0

    @property
    def top_share(self) -> float:
        return self.in_top / self.engaged if self.engaged else 0.0

    @property
    def latest_share(self) -> float:
        return self.in_latest / self.engaged if self.engaged else 0.0


def network(pick: random.Random) -> tuple[list[int], list[str], list[int], list[dict]]:
    """The authors (uids, logins), the crowd, and each reader's uid and interest."""
    authors = [seed.user("author") for _ in range(AUTHORS)]
    logins = [get_user(a)["login"] for a in authors]
    crowd = [seed.user("crowd") for _ in range(CROWD)]
    readers = []
    for _ in range(READERS):
        uid = seed.user("evalreader")
        for author in authors:
            graph.follow_user(uid, author)
        for liker in pick.sample(crowd, CROWD // 3):
            graph.follow_user(uid, liker)
        favourites = set(pick.sample(authors, FAVOURITES))
        interest = {
            a: pick.uniform(0.4, 0.8) if a in favourites else pick.uniform(0.0, 0.08)
            for a in authors
        }
        readers.append({"uid": uid, "interest": interest})
    return authors, logins, crowd, readers


def past(pick: random.Random, authors: list[int], logins: list[str], readers: list[dict]) -> None:
    """The readers' past engagement, through the services, on statuses then deleted."""
    posted = [(a, posting.post_status(a, f"past {n}")) for a in authors for n in range(PAST_EACH)]
    for reader in readers:
        uid, interest = reader["uid"], reader["interest"]
        for author, status in posted:
            if pick.random() < interest[author]:
                act = pick.random()
                if act < 0.6:
                    reactions.like(uid, status)
                elif act < 0.85:
                    posting.post_status(uid, "a reply", in_reply_to=status)
                else:
                    reactions.repost(uid, status)
        for author, login in zip(authors, logins, strict=True):
            if pick.random() < interest[author] / 2:
                graph_selectors.profile_page(login, uid)
    for author, status in posted:
        posting.delete_status(author, status)
    for reader in readers:
        for status_id in reactions_of(reader["uid"]):
            posting.delete_status(reader["uid"], status_id)
    call_command("worker", burst=True)


def reactions_of(uid: int) -> list[int]:
    """The statuses `uid` posted (their replies and reposts of the past)."""
    return [s["id"] for s in feeds.timeline_page(uid, "profile", count=1000).statuses]


def present(pick: random.Random, authors: list[int], crowd: list[int]) -> dict[int, tuple]:
    """The present statuses, posted in a shuffled order and liked by the crowd by their
    appeal: status id -> (author, appeal)."""
    order = [a for a in authors for _ in range(NOW_EACH)]
    pick.shuffle(order)
    statuses = {}
    for n, author in enumerate(order):
        appeal = pick.random()
        status = posting.post_status(author, f"now {n}")
        statuses[status] = (author, appeal)
        for liker in crowd:
            if pick.random() < 0.25 * appeal:
                reactions.like(liker, status)
    return statuses


@dataclass(frozen=True)
class Network:
    """What the evaluation made, for other rows to read: the authors and their logins,
    and the present statuses (id -> (author, appeal))."""

    authors: list[int]
    logins: list[str]
    statuses: dict[int, tuple]


def evaluate() -> tuple[Evaluation, Network]:
    """Runs the evaluation (on an empty store or beside other data: it makes its own)."""
    pick = random.Random(SEED)
    authors, logins, crowd, readers = network(pick)
    past(pick, authors, logins, readers)
    statuses = present(pick, authors, crowd)
    result = Evaluation()
    for reader in readers:
        interest = reader["interest"]
        engaged = {
            status
            for status, (author, appeal) in statuses.items()
            if pick.random() < min(1.0, interest[author] * (0.5 + appeal))
        }
        top = ranking.top_statuses(reader["uid"], count=FIRST)[0]
        latest = feeds.home_page(reader["uid"], count=FIRST).page.statuses
        result.engaged += len(engaged)
        result.in_top += sum(1 for s in top if s["id"] in engaged)
        result.in_latest += sum(1 for s in latest if s["id"] in engaged)
        result.home += len(ranking.top_statuses(reader["uid"], count=1000)[0])
    return result, Network(authors, logins, statuses)
