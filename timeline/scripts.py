"""Runs the Lua scripts that live beside the services as `lua/<name>.lua`.

Scripts go out with EVAL, source included: Redis caches the compiled script by
its SHA, and unlike EVALSHA this never meets NOSCRIPT after a server restart,
nor costs redis-py's extra SCRIPT EXISTS round trip inside pipelines."""

from functools import cache
from pathlib import Path

LUA_DIR = Path(__file__).parent / "lua"


@cache
def source(name: str, lua_dir: Path = LUA_DIR) -> str:
    """The script without its comment lines: EVAL sends the source with every call, and
    a repost's fan-out calls add_to_timeline.lua once a follower, half of it comments.
    A script with long brackets ("[[": block comments, long strings) goes as written."""
    text = (lua_dir / f"{name}.lua").read_text()
    if "[[" in text:
        return text
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))


def run(client, name: str, keys: list[str], args: list, *, lua_dir: Path = LUA_DIR) -> object:
    """EVAL `<lua_dir>/<name>.lua` (this app's `lua/` unless told) on `client`: a
    connection, a pipeline, or an asyncio client (then await the result)."""
    return client.eval(source(name, lua_dir), len(keys), *keys, *args)
