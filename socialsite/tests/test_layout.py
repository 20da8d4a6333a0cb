"""The layout's rules, read from the code itself: imports point one way, from the
apps down to the infrastructure (socialsite <- accounts <- timeline <- streaming <- api),
with only the wiring (settings, urls, asgi) looking up; no module imports itself
round a circle; and every test asserts something."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("socialsite", "accounts", "timeline", "streaming", "api")
# The wiring names every app by design: settings lists them, urls routes to them,
# asgi serves them.
WIRING = {"socialsite.settings", "socialsite.urls", "socialsite.asgi"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> dict[str, Path]:
    """Every module of the apps but their tests and migrations."""
    return {
        _module_name(path): path
        for layer in LAYERS
        for path in (ROOT / layer).rglob("*.py")
        if not {"tests", "testing", "migrations"} & set(path.relative_to(ROOT).parts)
    }


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports, anywhere in it (functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # `from x import y` imports x.y when y is a module, else x.
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        found |= {target for target in targets if target in modules}
    return found - {name}


def _graph() -> dict[str, set[str]]:
    modules = _project_modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _layer(module: str) -> int:
    return LAYERS.index(module.partition(".")[0])


def test_the_graph_is_read():
    graph = _graph()
    assert "timeline.posting.services" in graph["timeline.reactions.services"]
    assert "socialsite.redis" in graph["accounts.services"]


def test_imports_point_down_the_layers_outside_the_wiring():
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        if module not in WIRING
        for target in targets
        if _layer(target) > _layer(module)
    )
    assert upward == []


def test_no_module_imports_itself_round_a_circle():
    graph = _graph()
    circles, done = [], set()

    def visit(module: str, path: list[str]) -> None:
        for target in sorted(graph[module]):
            if target in path:
                circles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in done:
                visit(target, [*path, target])
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            visit(module, [module])
    assert circles == []


def _asserts(function: ast.AST) -> bool:
    source = ast.unparse(function)
    return any(isinstance(node, ast.Assert) for node in ast.walk(function)) or any(
        check in source for check in ("pytest.raises(", "expect(")
    )


def test_every_test_asserts_something():
    silent = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in ROOT.glob("**/tests/test_*.py")
        if ".venv" not in path.parts
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
        and not _asserts(node)
    ]
    assert silent == []


def test_make_test_runs_every_folder_of_tests():
    # pytest collects only its testpaths: a folder of tests outside them never runs.
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    collected = config["tool"]["pytest"]["ini_options"]["testpaths"]
    folders = {
        path.relative_to(ROOT).parts[0]
        for path in ROOT.glob("*/**/test_*.py")
        if not {".venv", "var"} & set(path.relative_to(ROOT).parts)
    }
    assert folders <= set(collected), f"tests pytest never collects: {folders - set(collected)}"
