"""Each Lua script is run through one Python function beside its `lua/` folder, which
takes its keys and arguments by name; no other module names a script."""

import ast
import inspect
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The module that runs each folder's scripts, when it isn't the package's scripts.py.
RUNNERS = {"socialsite/lua": ("socialsite.events", "socialsite.ratelimit")}
# The follow graph's storage scripts, run by their own layout's modules.
OWN_RUNNERS = {"timeline/graph/lua"}


def _folders() -> list[Path]:
    return sorted(
        path
        for layer in ("socialsite", "accounts", "timeline", "streaming", "api")
        for path in (ROOT / layer).rglob("lua")
        if path.is_dir() and str(path.relative_to(ROOT)) not in OWN_RUNNERS
    )


def _runners(folder: Path) -> list:
    relative = str(folder.relative_to(ROOT))
    package = ".".join(folder.parent.relative_to(ROOT).parts)
    return [import_module(name) for name in RUNNERS.get(relative, (f"{package}.scripts",))]


def test_every_script_has_one_function_with_keyword_only_parameters():
    for folder in _folders():
        functions = {
            name: function
            for module in _runners(folder)
            for name, function in inspect.getmembers(module, inspect.isfunction)
            if function.__module__ == module.__name__
        }
        for script in sorted(folder.glob("*.lua")):
            runs = [
                function
                for function in functions.values()
                if f'"{script.stem}"' in inspect.getsource(function)
            ]
            assert len(runs) == 1, f"{script.relative_to(ROOT)} is run by {runs}"
            parameters = list(inspect.signature(runs[0]).parameters.values())[1:]
            assert all(p.kind is p.KEYWORD_ONLY for p in parameters), runs[0]


def test_no_other_module_runs_a_script_by_its_name():
    runners = {Path(module.__file__) for folder in _folders() for module in _runners(folder)}
    for path in sorted(ROOT.glob("*/**/*.py")):
        relative = path.relative_to(ROOT)
        if path in runners or {"tests", ".venv", "bench"} & set(relative.parts):
            continue
        if str(relative.parent / "lua") in OWN_RUNNERS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            # LuaScripts.run(client, "name", keys, args)
            named = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "run"
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            )
            assert not named, f"{relative}:{node.lineno} runs a script by its name"
