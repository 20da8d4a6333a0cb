"""Runs the Lua scripts that live beside the services as `lua/<name>.lua`.

Scripts go out with EVAL, source included: Redis caches the compiled script by
its SHA, and unlike EVALSHA this never meets NOSCRIPT after a server restart,
nor costs redis-py's extra SCRIPT EXISTS round trip inside pipelines."""

from functools import cache
from pathlib import Path

LUA_DIR = Path(__file__).parent / "lua"


@cache
def source(name: str) -> str:
    return (LUA_DIR / f"{name}.lua").read_text()


def run(client, name: str, keys: list[str], args: list) -> object:
    """EVAL `lua/<name>.lua` on `client` (a connection or a pipeline)."""
    return client.eval(source(name), len(keys), *keys, *args)
