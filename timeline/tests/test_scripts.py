"""Scripts go out without their comment lines, and still run."""

from timeline import scripts


def test_a_script_is_sent_without_its_comments_and_runs(tmp_path, redis_conn):
    (tmp_path / "counted.lua").write_text(
        "-- KEYS[1] a counter\n"
        "  -- indented too\n"
        "return redis.call('INCRBY', KEYS[1], ARGV[1]) -- trailing comments stay\n"
    )
    sent = scripts.source("counted", tmp_path)
    assert "KEYS[1] a counter" not in sent and "indented too" not in sent
    assert scripts.run(redis_conn, "counted", ["n"], [5], lua_dir=tmp_path) == 5


def test_a_script_with_long_brackets_is_sent_as_written(tmp_path, redis_conn):
    text = "--[[ a block comment\n-- inside it ]]\nreturn 1\n"
    (tmp_path / "block.lua").write_text(text)
    assert scripts.source("block", tmp_path) == text
    assert scripts.run(redis_conn, "block", [], [], lua_dir=tmp_path) == 1
