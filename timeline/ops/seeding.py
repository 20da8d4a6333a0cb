"""A believable network for demos and load tests (`manage.py seed_network`).

Written straight into Redis with pipelines rather than through follow_user and
post_status one call at a time, but left exactly as if the users had followed
and then posted: counters equal their sets, home, mentions and tag timelines hold
their newest HOME_TIMELINE_SIZE statuses, and the global timeline and the
dashboard's activity counts are filled in."""

import heapq
import itertools
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import user_key
from accounts.services import create_login_users, create_users
from socialsite.redis import get_redis

from .. import keys
from ..discovery import activity
from ..discovery.suggestions import POPULAR_KEPT
from ..follow_sets import followers as follower_sets
from ..follow_sets import following as following_sets
from ..search import services as search
from ..statuses import layout, text
from ..statuses.scores import POSTED
from .report import chunks

DAY = 86400
# Statuses are spread over this many days, denser towards now.
HISTORY_DAYS = 7
# Exponent of the follow-popularity power law: user of rank r is picked with weight
# 1 / r**ALPHA, so a few accounts collect a large share of all follows.
ALPHA = 1.1
PIPELINE_SIZE = 2000

FIRST_NAMES = (  # noqa: SIM905  (word lists read better as text)
    "Ada Alan Alice Amara Ana Ben Bruno Carla Chen Chloe Dan Dara Eli Elena Emil Eva Farid "
    "Finn Grace Hana Hugo Ines Ivan Jada Jon Kai Kenji Lea Leo Lina Luca Maya Milo Nadia "
    "Nia Noah Omar Ona Paul Priya Quinn Rafa Rosa Sami Sara Theo Tove Uma Vera Wei Yara Zoe"
).split()
LAST_NAMES = (  # noqa: SIM905  (word lists read better as text)
    "Abe Baker Costa Diaz Eze Fischer Garcia Haddad Ito Jensen Kim Lopez Moreau Novak "
    "Okafor Park Quispe Rossi Silva Tanaka Ueda Varga Wong Xu Yilmaz Zhang"
).split()
# Status text: words drawn by Zipf's law (the word of rank r with weight 1 / r), as real
# text is: a few words are in most statuses and most words in very few. The search
# index's size depends on it (a couple of dozen fixed sentences made every one of their
# ~120 words "common": the rarest in 5% of statuses). The most used words are English's
# (by frequency); past them, made-up words of syllables stand in for the long tail.
COMMON_WORDS = (  # noqa: SIM905  (word lists read better as text)
    "the to and a of i in is it you that for on my be this with me have so just but not at "
    "are was all your we can like get do what up out one if no good now love new day know "
    "time today people will go from about how they back see got too think more there when "
    "work here great an need want really going make still some by would much off night our "
    "his her been last their them who best week first life way why home happy right over "
    "morning coffee music game city team book friends weekend tonight watch read code web "
    "rain sun train park run food trip photo design news open science art movie school"
).split()
SYLLABLES = (  # noqa: SIM905
    "ba be bi bo bu da de di do du fa fe fi fo ga ge go ka ke ki ko ku la le li lo lu ma me "
    "mi mo mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va vo"
).split()
# Ranks drawn from: 100,000 words, about the words in use in a large English corpus
# (30,000 statuses meet ~48,000 of them, half just once, as in real text).
VOCABULARY = 100_000
WORDS_PER_STATUS = (4, 16)
# Ordered from most to least used: tags are picked by the same kind of power law.
TAGS = (  # noqa: SIM905  (word lists read better as text)
    "redis python django music coffee travel football photography books running food design "
    "opensource science art movies gaming startup climate weekend"
).split()
CITIES = (
    (48.85, 2.35),
    (51.51, -0.13),
    (40.71, -74.01),
    (35.68, 139.69),
    (-23.55, -46.63),
    (52.52, 13.40),
    (19.43, -99.13),
    (-33.87, 151.21),
    (6.52, 3.38),
    (28.61, 77.21),
    (37.77, -122.42),
    (55.75, 37.62),
)


@dataclass(frozen=True)
class SeedResult:
    logins: list[str]
    follows: int
    statuses: int
    login_users: int


def network_is_empty() -> bool:
    """True while no status has ever been posted: a fresh store worth seeding."""
    return not get_redis().exists(keys.STATUS_ID_COUNTER)


def check_arguments(users: int, follows_per_user: int, posts_per_user: int) -> None:
    """Raises ValueError saying what is wrong with the sizes asked for."""
    if users < 2:
        raise ValueError("A network needs at least 2 users.")
    if follows_per_user < 0 or posts_per_user < 0:
        raise ValueError("Follows and posts per user can't be negative.")
    if follows_per_user >= users:
        raise ValueError(f"Each user can follow at most {users - 1} others in {users} users.")


def seed_network(
    *,
    users: int,
    follows_per_user: int,
    posts_per_user: int,
    seed: int,
    password: str | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> SeedResult:
    """Adds `users` new users who follow about `follows_per_user` others each (power-law
    follower counts) and post about `posts_per_user` statuses each, with #tags, @mentions
    and locations. The same seed gives the same network (on an empty store, up to the
    clock). With `password`, each also gets a Django user to log in with."""
    check_arguments(users, follows_per_user, posts_per_user)
    rng = random.Random(seed)
    now = time.time()
    uids, logins = _create_profiles(rng, users)
    progress(f"users: {users} created")
    login_users = create_login_users(logins, password) if password else 0
    following = _pick_follows(rng, users, follows_per_user)
    statuses = _compose_statuses(rng, uids, logins, following, posts_per_user, now)
    progress(f"statuses: {len(statuses)} composed")

    writes = _Writes(progress)
    pipe = writes.pipe
    follow_time = now - (HISTORY_DAYS + 1) * DAY
    followers: list[dict[int, int]] = [{} for _ in range(users)]
    for i, followed in enumerate(following):
        # Whole seconds, as graph.services stores follow times.
        since = {uids[j]: int(follow_time - rng.uniform(0, DAY)) for j in followed}
        for j, when in zip(followed, since.values(), strict=True):
            followers[j][uids[i]] = when
        if since:
            # Big ones straight into buckets, as follows one by one would have left them.
            following_sets.queue_add(pipe, uids[i], since)
            writes.count(pipe)
    for j, followed_by in enumerate(followers):
        if followed_by:
            writes.count(pipe.zadd(keys.followers_key(uids[j]), followed_by))
    writes.flush("follows")
    # Written whole, then cut into pieces as follows one by one would have made them.
    for j, followed_by in enumerate(followers):
        if len(followed_by) > settings.FOLLOWERS_PIECE_SIZE:
            follower_sets.split(get_redis(), uids[j])

    by_author: list[list[dict]] = [[] for _ in range(users)]
    for status in statuses:
        by_author[status["author"]].append(status)
        fields = {name: value for name, value in status.items() if name != "author"}
        writes.count(pipe.hset(keys.status_key(status["id"]), mapping=layout.stored_fields(fields)))
    for i, own in enumerate(by_author):
        counters = {
            "followers": len(followers[i]),
            "following": len(following[i]),
            "posts": len(own),
        }
        writes.count(pipe.hset(user_key(uids[i]), mapping=counters))
        if own:
            profile = {s["id"]: s["posted"] for s in own}
            writes.count(pipe.zadd(keys.profile_timeline_key(uids[i]), profile))
    # The most followed, as follows record them (discovery.suggestions.queue_popular).
    counted = ((len(followed_by), uids[j]) for j, followed_by in enumerate(followers))
    popular = {uid: count for count, uid in heapq.nlargest(POPULAR_KEPT, counted) if count}
    if popular:
        pipe.zadd(keys.POPULAR_USERS, popular)
    writes.flush("statuses")

    for i in range(users):
        sources = [by_author[i], *(by_author[j] for j in following[i])]
        writes.home_into(keys.home_timeline_key(uids[i]), itertools.chain(*sources))
    writes.flush("home timelines")

    # As conversations.index() and search.index() do for a post: the mentioned (existing)
    # users' mentions timelines, one timeline per tag, the word index and the tag names.
    mentioning, tagged = defaultdict(list), defaultdict(list)
    for status in statuses:
        if "mention_ids" in status:
            mentioning[int(status["mention_ids"])].append(status)
        for tag in text.tags(status["message"]):
            tagged[tag].append(status)
    for status in statuses:
        search.index(pipe, status)
        writes.count(pipe)
    for uid, mentions in mentioning.items():
        writes.newest_into(keys.mentions_timeline_key(uid), mentions)
    for tag, tagged_statuses in tagged.items():
        writes.newest_into(keys.tag_timeline_key(tag), tagged_statuses)
    writes.flush("mentions and tag timelines")

    newest = heapq.nlargest(settings.GLOBAL_TIMELINE_SIZE, statuses, key=_posted)
    if newest:
        pipe.zadd(keys.GLOBAL_TIMELINE, {s["id"]: s["posted"] for s in newest})
        pipe.zremrangebyrank(keys.GLOBAL_TIMELINE, 0, -settings.GLOBAL_TIMELINE_SIZE - 1)
    # The dashboard counts the last day's statuses as if it had been listening: each seen
    # when posted (oldest first), so the events-counted set keeps the last hour's, as live.
    for status in statuses:
        if status["posted"] > now - activity.HOURS * 3600:
            activity.record(pipe, status, now=status["posted"])
            writes.count(pipe)
    writes.flush("global timeline and activity")
    follows = sum(len(f) for f in following)
    return SeedResult(
        logins=logins, follows=follows, statuses=len(statuses), login_users=login_users
    )


def vocabulary_word(rank: int) -> str:
    """The word of `rank` (0 the most used) in the seed's vocabulary."""
    if rank < len(COMMON_WORDS):
        return COMMON_WORDS[rank]
    syllables = []
    while rank:
        rank, digit = divmod(rank, len(SYLLABLES))
        syllables.append(SYLLABLES[digit])
    return "".join(syllables)


def _posted(status: Mapping[str, Any]) -> float:
    return status["posted"]


def _id(status: Mapping[str, Any]) -> int:
    return status["id"]


class _Writes:
    """A pipeline sent every PIPELINE_SIZE queued writes, reporting progress per stage."""

    def __init__(self, progress: Callable[[str], None]):
        self.pipe = get_redis().pipeline(transaction=False)
        self.progress = progress
        self.sent = 0

    def newest_into(self, timeline_key: str, statuses: Iterable[dict]) -> None:
        """Writes the newest HOME_TIMELINE_SIZE of `statuses` into a sorted-set timeline
        (POSTED)."""
        newest = heapq.nlargest(settings.HOME_TIMELINE_SIZE, statuses, key=_posted)
        if newest:
            entries = {s["id"]: POSTED.score(s["posted"]) for s in newest}
            self.count(self.pipe.zadd(timeline_key, entries))

    def home_into(self, home_key: str, statuses: Iterable[dict]) -> None:
        """Writes the newest HOME_TIMELINE_SIZE of `statuses` into a home, newest at the
        head (timeline.feeds.home_list; ids are given out in post order)."""
        newest = heapq.nlargest(settings.HOME_TIMELINE_SIZE, statuses, key=_id)
        if newest:
            self.count(self.pipe.rpush(home_key, *(s["id"] for s in newest)))

    def count(self, _pipe) -> None:
        if len(self.pipe) >= PIPELINE_SIZE:
            self.sent += len(self.pipe)
            self.pipe.execute()

    def flush(self, stage: str) -> None:
        self.sent += len(self.pipe)
        self.pipe.execute()
        self.progress(f"{stage}: written ({self.sent} writes so far)")


def _login_candidates(rng: random.Random):
    while True:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        style = rng.randrange(5)
        login = [
            first,
            f"{first}{last}",
            f"{first}_{last}",
            f"{first}{rng.randrange(10, 100)}",
            f"{first[0]}{last}",
        ][style].lower()
        yield login, f"{first} {last}"


def _create_profiles(rng: random.Random, users: int) -> tuple[list[int], list[str]]:
    """Profiles with fresh logins; a login already taken gets a number appended."""
    wanted: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for login, name in itertools.islice(_login_candidates(rng), users):
        seen[login] = seen.get(login, 0) + 1
        # No candidate has "_<digits>" at its end, so this can't meet another.
        wanted.append((f"{login}_{seen[login]}" if seen[login] > 1 else login, name))
    uids: list[int | None] = [None] * users
    attempt = 0
    while pending := [i for i, uid in enumerate(uids) if uid is None]:
        attempt += 1
        for chunk in chunks(pending):
            suffix = f"_{attempt}" if attempt > 1 else ""
            batch = [(wanted[i][0][: 30 - len(suffix)] + suffix, wanted[i][1]) for i in chunk]
            for i, (login, name), uid in zip(chunk, batch, create_users(batch), strict=True):
                if uid:
                    uids[i], wanted[i] = uid, (login, name)
    # Every place is filled when none is pending.
    return [uid for uid in uids if uid is not None], [login for login, _ in wanted]


def _pick_follows(rng: random.Random, users: int, per_user: int) -> list[list[int]]:
    """Whom each user follows (indexes): about `per_user` each, log-normally spread,
    chosen by popularity rank with a power law."""
    ranks = rng.sample(range(users), users)
    weights = itertools.accumulate(1 / (rank + 1) ** ALPHA for rank in ranks)
    cumulative = list(weights)
    following: list[list[int]] = []
    for i in range(users):
        if per_user == 0:
            following.append([])
            continue
        # Log-normal with mean per_user: most follow a few, some follow very many.
        wanted = min(users - 1, max(1, round(rng.lognormvariate(math.log(per_user) - 0.5, 1))))
        draws = rng.choices(range(users), cum_weights=cumulative, k=3 * wanted)
        picked = list(dict.fromkeys(j for j in draws if j != i))[:wanted]
        if len(picked) < wanted:
            rest = sorted(set(range(users)) - set(picked) - {i})
            picked += rng.sample(rest, wanted - len(picked))
        following.append(picked)
    return following


def _compose_statuses(
    rng: random.Random,
    uids: list[int],
    logins: list[str],
    following: list[list[int]],
    per_user: int,
    now: float,
) -> list[dict]:
    """Every status of the network, oldest first, with ids allocated in that order."""
    tag_weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(TAGS))))
    word_weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(VOCABULARY)))
    ranks = range(VOCABULARY)
    drafts: list[dict[str, Any]] = []
    for i in range(len(uids)):
        # Log-normal with mean per_user, like the follows: a few post a lot.
        count = round(rng.lognormvariate(math.log(per_user) - 0.5, 1)) if per_user else 0
        for _ in range(count):
            drawn = rng.choices(ranks, cum_weights=word_weights, k=rng.randint(*WORDS_PER_STATUS))
            parts = [vocabulary_word(rank) for rank in drawn]
            parts[0] = parts[0].capitalize()
            mention = {}
            if following[i] and rng.random() < 0.3:
                j = rng.choice(following[i])
                parts.insert(0, "@" + logins[j])
                # The fields a post records for the mentions of existing users.
                mention = {"mentions": logins[j].lower(), "mention_ids": str(uids[j])}
            if rng.random() < 0.4:
                parts.append("#" + rng.choices(TAGS, cum_weights=tag_weights)[0])
            # Squaring crowds the times towards now, as real activity grows.
            status: dict[str, Any] = {
                "author": i,
                "message": " ".join(parts),
                "posted": layout.exact_posted(now - HISTORY_DAYS * DAY * rng.random() ** 2),
                **mention,
            }
            if rng.random() < 0.3:
                lat, lon = rng.choice(CITIES)
                status["location"] = (
                    f"{lat + rng.uniform(-0.1, 0.1):.4f},{lon + rng.uniform(-0.1, 0.1):.4f}"
                )
            drafts.append(status)
    drafts.sort(key=_posted)
    last = get_redis().incrby(keys.STATUS_ID_COUNTER, len(drafts)) if drafts else 0
    for offset, status in enumerate(drafts):
        i = status["author"]
        status.update(id=last - len(drafts) + 1 + offset, uid=uids[i], login=logins[i])
    return drafts
