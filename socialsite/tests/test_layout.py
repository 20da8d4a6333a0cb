"""The layout's rules, read from the code itself: imports point one way, from the
apps down to the infrastructure (socialsite <- accounts <- timeline <- streaming <- api),
with only the wiring (settings, urls, asgi) looking up; inside timeline, from each room
down the rooms' order (ROOMS), with no circle between rooms; no module imports itself
round a circle; and every test asserts something."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("socialsite", "accounts", "timeline", "streaming", "api")
# The wiring names every app by design: settings lists them, urls routes to them,
# asgi serves them.
WIRING = {"socialsite.settings", "socialsite.urls", "socialsite.asgi"}
# The rooms of timeline (its subpackages), bottom first: a room may import the rooms of
# the layers below its own, never a room of its own layer or above, so no two rooms
# import each other round a circle. Each module of a room counts, its views too (a page
# that needs a higher room's work is that room's view). timeline/__init__.py says the same.
ROOMS = (
    ("push",),  # Web Push subscriptions (api.push delivers)
    ("follow_sets", "media"),  # storage of the follow graph; media attachments
    ("statuses",),  # the status record, its cache, marks and cards
    ("audience", "discovery", "linkcards"),  # who may see what; trends, suggestions; link cards
    ("quotes",),  # who may quote, a status's quotes, the quoted status as a viewer sees it
    ("feeds",),  # fan-out, homes and every timeline's page
    ("conversations", "direct", "lists", "notifications", "ranking"),
    ("keeps",),  # bookmarks, pins, followed tags (the profile shows pins; a tag's page)
    ("graph", "groups", "polls"),  # follow and unfollow, requests, the profile page; groups; polls
    ("safety", "search"),  # privacy, blocks and mutes; search
    ("posting",),  # post, reply, repost's status, delete
    ("reactions", "reports", "edits"),  # likes and reposts; reports; edits of statuses
    ("explore",),  # trending statuses and links, as a viewer may see them
    ("moderation", "ops"),  # a closed account's purge, moderators' pages; repair, seeding
    ("export", "data_migrations"),  # an account's archive; the numbered upgrades of stored data
    ("management", "templatetags"),  # the manage.py commands; template filters
)


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


def _room(module: str) -> str | None:
    """The room of timeline that `module` is in (None for timeline's own modules)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "timeline" and len(parts) > 2 else None


def _room_imports() -> dict[str, dict[str, list[str]]]:
    """For each room, the rooms it imports, each with the imports that do it."""
    rooms: dict[str, dict[str, list[str]]] = {}
    for module, targets in _graph().items():
        room = _room(module)
        if room is None:
            continue
        rooms.setdefault(room, {})
        for target in targets:
            if _room(target) not in (None, room):
                rooms[room].setdefault(_room(target), []).append(f"{module} -> {target}")
    return rooms


def test_every_room_of_timeline_has_a_place_in_the_order():
    placed = [room for layer in ROOMS for room in layer]
    assert len(placed) == len(set(placed))
    assert sorted(_room_imports()) == sorted(placed)


def test_rooms_import_only_the_rooms_below_them():
    layer = {room: i for i, rooms in enumerate(ROOMS) for room in rooms}
    upward = sorted(
        imported
        for room, targets in _room_imports().items()
        for target, imports in targets.items()
        if layer.get(target, len(ROOMS)) >= layer.get(room, -1)
        for imported in imports
    )
    assert upward == []


def test_no_room_imports_itself_round_a_circle():
    rooms = _room_imports()
    circles, done = [], set()

    def visit(room: str, path: list[str]) -> None:
        for target in sorted(rooms.get(room, {})):
            if target in path:
                circles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in done:
                visit(target, [*path, target])
        done.add(room)

    for room in sorted(rooms):
        if room not in done:
            visit(room, [room])
    assert circles == []


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
