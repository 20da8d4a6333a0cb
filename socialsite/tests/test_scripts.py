"""Scripts go out without their comment lines, and still run; in the test suites they
may touch only the keys they declare, in one hash slot."""

import pytest
import redis

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


def test_a_script_that_touches_a_key_it_does_not_declare_fails(tmp_path, redis_conn):
    # The suites run with REDIS_CHECK_SCRIPT_KEYS: on one server as on a cluster, where
    # Redis 6.2 would run it whenever the undeclared key happens to live on the same node.
    (tmp_path / "sneaky.lua").write_text(
        "redis.call('SET', KEYS[1], 1)\nreturn redis.call('GET', 'elsewhere')\n"
    )
    with pytest.raises(redis.ResponseError, match="does not declare: get elsewhere"):
        LuaScripts(tmp_path).run(redis_conn, "sneaky", ["n:{1}"], [])


def test_a_script_may_delete_and_publish_what_it_declares(tmp_path, redis_conn):
    (tmp_path / "tidy.lua").write_text(
        "redis.call('DEL', KEYS[1], KEYS[2])\nreturn redis.call('PUBLISH', ARGV[1], 'gone')\n"
    )
    redis_conn.set("a:{1}", 1)
    assert LuaScripts(tmp_path).run(redis_conn, "tidy", ["a:{1}", "b:{1}"], ["news"]) == 0
    assert not redis_conn.exists("a:{1}")
    (tmp_path / "greedy.lua").write_text("return redis.call('DEL', KEYS[1], 'b:{2}')\n")
    with pytest.raises(redis.ResponseError, match=r"does not declare: del b:\{2\}"):
        LuaScripts(tmp_path).run(redis_conn, "greedy", ["a:{1}"], [])
    # A key it names itself in a declared key's slot (its hash tag) is fine.
    (tmp_path / "own.lua").write_text("return redis.call('DEL', KEYS[1] .. ':b')\n")
    redis_conn.set("a:{1}:b", 1)
    assert LuaScripts(tmp_path).run(redis_conn, "own", ["a:{1}"], []) == 1


def test_a_script_includes_a_library_of_functions_beside_it(tmp_path, redis_conn):
    (tmp_path / "lib.lua").write_text("-- doubles\nlocal function twice(n) return 2 * n end\n")
    (tmp_path / "use.lua").write_text("-- include: lib\nreturn twice(tonumber(ARGV[1]))\n")
    assert LuaScripts(tmp_path).run(redis_conn, "use", [], [21]) == 42
    sent = scripts.source(tmp_path / "use.lua")
    assert "twice" in sent and "doubles" not in sent


def test_a_script_includes_a_library_from_the_lib_folder_beside_it(tmp_path, redis_conn):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "halves.lua").write_text("local function half(n) return n / 2 end\n")
    (tmp_path / "use.lua").write_text("-- include: lib/halves\nreturn half(tonumber(ARGV[1]))\n")
    assert LuaScripts(tmp_path).run(redis_conn, "use", [], [84]) == 42


def test_a_script_whose_keys_span_hash_slots_is_refused_before_it_is_sent(tmp_path, redis_conn):
    (tmp_path / "wide.lua").write_text("return redis.call('SET', KEYS[1], 1)\n")
    with pytest.raises(ValueError, match="several hash slots"):
        LuaScripts(tmp_path).run(redis_conn, "wide", ["a:{1}", "a:{2}"], [])
    assert not redis_conn.exists("a:{1}")
