"""The follow sets' scripts are each run by one function of the package, by name
nowhere else."""

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parents[1]


def _runs(path: Path) -> list[str]:
    """The script names `path` runs by name (scripts.run(client, "name", ...))."""
    return re.findall(r'scripts\.run\(\s*\w+,\s*"(\w+)"', path.read_text())


def test_each_script_is_run_by_one_function_of_the_package():
    scripts = sorted(path.stem for path in (PACKAGE / "lua").glob("*.lua"))
    runs = [name for module in PACKAGE.glob("*.py") for name in _runs(module)]
    assert sorted(runs) == scripts


def test_no_other_module_runs_a_follow_set_script_by_name():
    scripts = {path.stem for path in (PACKAGE / "lua").glob("*.lua")}
    elsewhere = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in ROOT.glob("**/*.py")
        if ".venv" not in path.parts and PACKAGE not in path.parents
        for name in _runs(path)
        if name in scripts
    ]
    assert elsewhere == []


def test_the_shared_libraries_are_included_not_run():
    libraries = {path.stem for path in (PACKAGE / "lua" / "lib").glob("*.lua")}
    assert libraries == {"pieces", "following", "following_read"}
    for script in (PACKAGE / "lua").glob("*.lua"):
        included = re.findall(r"^-- include: (\S+)$", script.read_text(), re.M)
        assert all(name.startswith("lib/") for name in included), script.name
