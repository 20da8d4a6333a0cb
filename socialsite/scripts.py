"""Runs the Lua scripts that live beside the code that uses them, as `lua/<name>.lua`.

Each package that has scripts makes one `LuaScripts` for its own `lua/` folder:
`scripts = LuaScripts(__file__)`, then `scripts.run(client, "name", keys, args)`.

Scripts go out with EVAL, source included: Redis caches the compiled script by
its SHA, and unlike EVALSHA this never meets NOSCRIPT after a server restart,
nor costs redis-py's extra SCRIPT EXISTS round trip inside pipelines."""

from functools import cache
from pathlib import Path


@cache
def source(path: Path) -> str:
    """The script without its comment lines: EVAL sends the source with every call, and
    a repost's fan-out calls add_to_timeline.lua once a follower, half of it comments.
    A script with long brackets ("[[": block comments, long strings) goes as written."""
    text = path.read_text()
    if "[[" in text:
        return text
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))


class LuaScripts:
    """The scripts in the `lua/` folder beside `module_file` (a module's `__file__`), or
    in `module_file` itself if it is a folder."""

    def __init__(self, module_file: str | Path) -> None:
        path = Path(module_file)
        self.folder = path if path.is_dir() else path.parent / "lua"

    def run(self, client, name: str, keys: list[str], args: list) -> object:
        """EVAL `<folder>/<name>.lua` on `client`: a connection, a pipeline, or an asyncio
        client (then await the result)."""
        return client.eval(source(self.folder / f"{name}.lua"), len(keys), *keys, *args)
