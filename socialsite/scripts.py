"""Runs the Lua scripts that live beside the code that uses them, as `lua/<name>.lua`.

Each package that has scripts runs them from one module beside its `lua/` folder (the
package's `scripts.py`, or the module that owns the layout), which makes one
`LuaScripts(__file__)` and one function a script, taking its keys and arguments by name:
`def take_status(client, *, status_key, author, changes_channel)`. Nothing else names a
script: other modules call that function.

Scripts go out with EVAL, source included: Redis caches the compiled script by
its SHA, and unlike EVALSHA this never meets NOSCRIPT after a server restart,
nor costs redis-py's extra SCRIPT EXISTS round trip inside pipelines.

A script must touch only the keys it declares (KEYS), all in one hash slot, or it can't
run on Redis Cluster. The cluster itself refuses declared keys of several slots
(CROSSSLOT), but a Redis 6.2 node runs a script that touches an undeclared key whenever
that key happens to live on the same node. With settings.REDIS_CHECK_SCRIPT_KEYS (the
test suites set it) both are checked on every run, on one server too: the declared keys
here, and every key a command in the script touches by a prelude (KEY_CHECK). A key
the script names itself passes when it shares a declared key's hash tag (so its slot):
the pieces of a big follower set (timeline.follow_sets.followers) are found inside the script.

`-- include: <path>` on a line of its own puts `<path>.lua` there, the path relative to
the script's own folder: a library of local functions several scripts share lives in
the `lib/` folder beside them (`-- include: lib/<name>`)."""

from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from redis.cluster import ClusterPipeline
from redis.crc import key_slot

from .redis import Client, Pipe

# Shadows `redis` for the script after it: each call's keys must be among KEYS. The key
# is a command's first argument but for the commands below (none, every argument, or
# as many as the first says).
KEY_CHECK = """
local declared = {}
local function tag(key) return string.match(key, '{([^}]+)}') end
for _, key in ipairs(KEYS) do
  declared[key] = true
  if tag(key) then declared['{' .. tag(key) .. '}'] = true end
end
local keyless = {publish = true, time = true}
local all_keys = {del = true, exists = true, unlink = true, touch = true, mget = true}
local numkeys_first = {zunion = true, zinter = true, zdiff = true}
local function check(command, ...)
  local name = string.lower(command)
  if keyless[name] then return end
  local args = {...}
  local first, last = 1, all_keys[name] and #args or math.min(#args, 1)
  if numkeys_first[name] then
    first, last = 2, 1 + tonumber(args[1])
  end
  for i = first, last do
    local key = tostring(args[i])
    if not declared[key] and not (tag(key) and declared['{' .. tag(key) .. '}']) then
      error('the script touches a key it does not declare: ' .. name .. ' ' .. tostring(args[i]))
    end
  end
end
local redis = setmetatable({
  call = function(...) check(...) return redis.call(...) end,
  pcall = function(...) check(...) return redis.pcall(...) end,
}, {__index = redis})
"""


INCLUDE = "-- include:"


@cache
def source(path: Path) -> str:
    """The script without its comment lines: EVAL sends the source with every call, and
    a repost's fan-out calls add_to_timeline.lua once a follower, half of it comments.
    A script with long brackets ("[[": block comments, long strings) goes as written."""
    text = "".join(
        (path.parent / f"{line.split(':', 1)[1].strip()}.lua").read_text()
        if line.startswith(INCLUDE)
        else line
        for line in path.read_text().splitlines(keepends=True)
    )
    if "[[" in text:
        return text
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))


@cache
def checked_source(path: Path) -> str:
    """The script after the KEY_CHECK prelude."""
    return KEY_CHECK + source(path)


class LuaScripts:
    """The scripts in the `lua/` folder beside `module_file` (a module's `__file__`), or
    in `module_file` itself if it is a folder."""

    def __init__(self, module_file: str | Path) -> None:
        path = Path(module_file)
        self.folder = path if path.is_dir() else path.parent / "lua"
        # Each script's text by (name, keys checked): a Path built and hashed a call
        # cost a page's few scripts ~10 us each.
        self._texts: dict[tuple[str, bool], str] = {}

    def run(
        self,
        client: Client | Pipe,
        name: str,
        keys: list[str],
        args: list[Any],
        *,
        slot_of: str | None = None,
    ) -> Any:
        """EVAL `<folder>/<name>.lua` on `client`: a connection, a pipeline, or an asyncio
        client (then await the result). A script with no keys runs on a cluster's node
        that serves the slot of `slot_of` (a channel's name, say), or on any node."""
        checked = settings.REDIS_CHECK_SCRIPT_KEYS
        if checked and len({key_slot(str(key).encode()) for key in keys}) > 1:
            raise ValueError(f"{name}.lua: its keys span several hash slots: {keys}")
        script = self._texts.get((name, checked))
        if script is None:
            path = self.folder / f"{name}.lua"
            script = (checked_source if checked else source)(path)
            self._texts[name, checked] = script
        # Not client.eval(): a cluster's pipeline refuses it, but queues the command.
        return client.execute_command(
            "EVAL", script, len(keys), *keys, *args, **_route(client, keys[0] if keys else slot_of)
        )


def _route(client: Client | Pipe, by: str | None) -> dict[str, Any]:
    """Where a cluster's pipeline sends the script (the node of `by`'s slot, or the default
    node): told, because redis-py 8 would ask the server (COMMAND GETKEYS, the whole
    script sent) for the keys of every EVAL it queues, one more round trip each. A slot
    that moved is still followed (MOVED)."""
    # A Batch of reads queues on its redis-py pipeline.
    client = getattr(client, "pipe", client)
    if not isinstance(client, ClusterPipeline):
        return {}
    if by is None:
        return {"target_nodes": client.get_default_node()}
    return {"target_nodes": client.nodes_manager.get_node_from_slot(key_slot(str(by).encode()))}
