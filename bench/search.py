"""9. Search: a two-word status search over SEARCH_STATUSES indexed statuses (the
word index of timeline/search, as posting writes it), beside one raw SRANDMEMBER of a
page's worth of ids; and a people search by name prefix."""

import random

from accounts.services import search_people
from socialsite.redis import PackedPipeline
from timeline import keys
from timeline.search import selectors
from timeline.search import services as search
from timeline.statuses import layout

from . import seed
from .context import Context
from .measure import Row, Size, time_interleaved

PAGE_SIZE = 30
VOCABULARY = 5_000
WORDS_EACH = 12
CHUNK = 5_000
# (query, page): two of the most used words (many matches, the newest shard answers),
# the same deep in the results, two rarer ones (few matches: every shard is read), a
# rare one alone (in ~0.03% of statuses) and beside a common one.
QUERIES = (("w1 w2", 1), ("w1 w2", 34), ("w200 w300", 1), ("w4000", 1), ("w1 w4000", 1))


def word(rank: int) -> str:
    return f"w{rank}"


def index_statuses(ctx: Context, count: int, author: int) -> int:
    """`count` statuses of WORDS_EACH words drawn from VOCABULARY by Zipf's law, stored,
    then indexed as posting does (raw pipelines: only the index's shape matters here).
    Returns what the index adds to Redis's used_memory."""
    rng = random.Random(7)
    weights = [1 / (rank + 1) for rank in range(VOCABULARY)]
    ranks = range(VOCABULARY)
    last = ctx.conn.incrby(keys.STATUS_ID_COUNTER, count)
    statuses = [
        {
            "id": last - count + 1 + offset,
            "uid": author,
            "login": "searched",
            "message": " ".join(map(word, rng.choices(ranks, weights, k=WORDS_EACH))),
            "posted": 1_700_000_000 + offset,
        }
        for offset in range(count)
    ]
    for start in range(0, count, CHUNK):
        pipe = PackedPipeline(ctx.conn)
        for status in statuses[start : start + CHUNK]:
            pipe.hset(keys.status_key(status["id"]), mapping=layout.stored_fields(status))
        pipe.execute()
    before = ctx.conn.info("memory")["used_memory"]
    for start in range(0, count, CHUNK):
        pipe = PackedPipeline(ctx.conn)
        for status in statuses[start : start + CHUNK]:
            search.index(pipe, status)
        pipe.execute()
    return ctx.conn.info("memory")["used_memory"] - before


def run(ctx: Context) -> list[Row]:
    conn, plan = ctx.conn, ctx.plan
    author = seed.user("searched")
    index_bytes = index_statuses(ctx, plan.search_statuses, author)
    rows = [
        Row(
            "search",
            f"index memory, {plan.search_statuses:,} statuses of {WORDS_EACH} words",
            Size(index_bytes / plan.search_statuses, "bytes a status"),
        )
    ]
    for query, page in QUERIES:
        terms = selectors.query_words(query)
        total = len(selectors.matching_ids(terms, 0, plan.search_statuses))
        newest = keys.search_ids_key(search.shard_of(plan.search_statuses), "w1")
        got = time_interleaved(
            {
                "ours": lambda _: selectors.search_statuses(query, page, PAGE_SIZE),  # noqa: B023
                "raw": lambda _: conn.srandmember(newest, PAGE_SIZE),  # noqa: B023
            },
            plan.page_samples,
            ctx.counter,
        )
        shown = f"page {page}" if page > 1 else f"{PAGE_SIZE}"
        rows.append(
            Row(
                "search",
                f'"{query}", {shown} of {total:,} matches in {plan.search_statuses:,}',
                got["ours"],
                "one raw SRANDMEMBER",
                got["raw"],
            )
        )
    for i in range(plan.search_people):
        seed.user(f"findme{i}x")
    got = time_interleaved(
        {
            "ours": lambda _: search_people("findme", count=20),
            "raw": lambda _: conn.zrevrange(keys.POPULAR_USERS, 0, 19),
        },
        plan.page_samples,
        ctx.counter,
    )
    case = f'people "findme", 20 of {plan.search_people:,} by followers'
    rows.append(Row("search", case, got["ours"], "one raw ZREVRANGE", got["raw"]))
    return rows
