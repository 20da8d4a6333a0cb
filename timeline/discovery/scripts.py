"""Discovery's Lua scripts (`lua/` beside this module), one function each: the only way
any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def record_activity(
    client: Client | Pipe,
    *,
    counted_key: str,
    posts_key: str,
    tags_key: str,
    mentions_key: str,
    event_id: str,
    now: float,
    delta: int,
    posts_expire_at: int,
    terms_expire_at: int,
    tags: list[Any],
    mentions: list[Any],
) -> Any:
    """Counts one posted (`delta` 1) or deleted (-1) status into the activity buckets,
    at most once: 1 if counted, 0 if the event was counted already."""
    return _lua.run(
        client,
        "record_activity",
        [counted_key, posts_key, tags_key, mentions_key],
        [event_id, now, delta, posts_expire_at, terms_expire_at, len(tags), *tags, *mentions],
    )


def record_trends(
    client: Client | Pipe,
    *,
    counted_key: str,
    statuses_key: str,
    links_key: str,
    link_authors_key: str,
    uses_key: str,
    accounts_key: str,
    pairs_key: str,
    event_id: str,
    now: float,
    engaged: int | str,
    engagement: float,
    hour_expire_at: int,
    author: int | str,
    posted: float,
    day_expire_at: int,
    links: list[str],
) -> Any:
    """Counts one event into Explore's trends at most once: `engagement` for status
    `engaged` ("" for none), and `links` of `author`'s status posted at `posted`, each
    once a day per author: 1 if counted, 0 if the event was counted already."""
    return _lua.run(
        client,
        "record_trends",
        [
            counted_key,
            statuses_key,
            links_key,
            link_authors_key,
            uses_key,
            accounts_key,
            pairs_key,
        ],
        [
            event_id,
            now,
            engaged,
            engagement,
            hour_expire_at,
            author,
            posted,
            day_expire_at,
            *links,
        ],
    )


def rank_trends(
    client: Client | Pipe,
    *,
    sum_key: str,
    bucket_weights: dict[str, float],
    count: int,
) -> Any:
    """The `count` highest of the buckets, each weighted by `bucket_weights`, as
    member, score, ... highest first (none at or below 0)."""
    return _lua.run(
        client,
        "rank_trends",
        [sum_key, *bucket_weights],
        [count, *bucket_weights.values()],
    )
