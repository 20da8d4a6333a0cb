"""Each Lua script is run through one Python function beside its `lua/` folder, which
takes its keys and arguments by name; no other module names a script. (The follow
graph's storage scripts are held to it by their own package's tests.)"""

import ast
import inspect
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = [
    ROOT / folder / "lua"
    for folder in (
        "socialsite",
        "streaming",
        "timeline/data_migrations",
        "timeline/direct",
        "timeline/discovery",
        "timeline/groups",
        "timeline/feeds",
        "timeline/lists",
        "timeline/notifications",
        "timeline/ops",
        "timeline/reactions",
        "timeline/reports",
        "timeline/search",
        "timeline/statuses",
    )
]


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _runners(folder: Path) -> list[Path]:
    """The modules beside `folder` that run its scripts (they make its LuaScripts)."""
    return [
        path
        for path in sorted(folder.parent.glob("*.py"))
        if "LuaScripts(__file__)" in path.read_text()
    ]


def _named_runs(path: Path) -> list[tuple[int, str]]:
    """Where `path` calls `<something>.run(client, "name", ...)`: LuaScripts.run's shape."""
    return [
        (node.lineno, node.args[1].value)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "run"
        and len(node.args) > 1
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ]


def test_every_script_is_run_by_one_function_with_keyword_only_parameters():
    for folder in FOLDERS:
        functions = [
            function
            for path in _runners(folder)
            for _, function in inspect.getmembers(
                import_module(_module_name(path)), inspect.isfunction
            )
            if function.__module__ == _module_name(path)
        ]
        for script in sorted(folder.glob("*.lua")):
            runs = [f for f in functions if f'"{script.stem}"' in inspect.getsource(f)]
            assert len(runs) == 1, f"{script.relative_to(ROOT)} is run by {runs}"
            parameters = list(inspect.signature(runs[0]).parameters.values())[1:]
            assert all(p.kind is p.KEYWORD_ONLY for p in parameters), runs[0]


def test_no_other_module_runs_a_script_by_its_name():
    names = {script.stem for folder in FOLDERS for script in folder.glob("*.lua")}
    runners = {path for folder in FOLDERS for path in _runners(folder)}
    layers = ("socialsite", "accounts", "timeline", "streaming", "api", "bench")
    for path in sorted(path for layer in layers for path in (ROOT / layer).rglob("*.py")):
        relative = path.relative_to(ROOT)
        if path in runners or "tests" in relative.parts:
            continue
        for line, name in _named_runs(path):
            assert name not in names, f"{relative}:{line} runs {name}.lua by its name"
