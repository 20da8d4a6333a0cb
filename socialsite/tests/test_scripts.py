"""Scripts go out without their comment lines, and still run."""

from socialsite import scripts
from socialsite.scripts import LuaScripts


def test_a_script_is_sent_without_its_comments_and_runs(tmp_path, redis_conn):
    (tmp_path / "counted.lua").write_text(
        "-- KEYS[1] a counter\n"
        "  -- indented too\n"
        "return redis.call('INCRBY', KEYS[1], ARGV[1]) -- trailing comments stay\n"
    )
    sent = scripts.source(tmp_path / "counted.lua")
    assert "KEYS[1] a counter" not in sent and "indented too" not in sent
    assert LuaScripts(tmp_path).run(redis_conn, "counted", ["n"], [5]) == 5


def test_a_script_with_long_brackets_is_sent_as_written(tmp_path, redis_conn):
    text = "--[[ a block comment\n-- inside it ]]\nreturn 1\n"
    (tmp_path / "block.lua").write_text(text)
    assert scripts.source(tmp_path / "block.lua") == text
    assert LuaScripts(tmp_path).run(redis_conn, "block", [], []) == 1


def test_a_module_runs_the_scripts_in_the_lua_folder_beside_it(tmp_path, redis_conn):
    (tmp_path / "lua").mkdir()
    (tmp_path / "lua" / "one.lua").write_text("return 1\n")
    assert LuaScripts(tmp_path / "module.py").run(redis_conn, "one", [], []) == 1
