"""The word index's Lua scripts (`lua/` beside this module), one function each: the only
way any module runs them. Each takes its keys and arguments by name, in the order the
script's header comment gives them."""

from typing import Any

from socialsite.redis import Client, Pipe
from socialsite.scripts import LuaScripts

_lua = LuaScripts(__file__)


def index_words(
    client: Client | Pipe,
    *,
    word_keys: list[str],
    change: str,
    offset: int,
    bucket_most: int,
    words: list[Any],
) -> Any:
    """Adds ("add") or removes ("remove") one status's `words` in its shard's index
    (`word_keys`: each word's own set, then its bucket hash, in `words`' order)."""
    return _lua.run(client, "index_words", word_keys, [change, offset, bucket_most, *words])


def search_shard(
    client: Client | Pipe,
    *,
    word_keys: list[str],
    skip: int,
    count: int,
    first_id: int,
    top_id: int,
    words: list[Any],
) -> Any:
    """One shard's matches for `words` (`word_keys` as index_words takes them), newest
    first: {how many matches it went through, the ids asked for}."""
    return _lua.run(client, "search_shard", word_keys, [skip, count, first_id, top_id, *words])
