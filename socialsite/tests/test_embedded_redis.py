"""The throwaway Redis servers of tests and `make run` never hold their caller's output
open: a server outliving a parent killed mid-run (a worker's os._exit on a timeout, a
SIGKILL) would otherwise keep a CI runner reading the pipe until its own deadline."""

import os
import subprocess
import sys
import textwrap

import redis

STARTS_AND_DIES = textwrap.dedent(
    """
    import os
    from socialsite.embedded_redis import throwaway
    server = throwaway()
    print(server.start(), flush=True)
    os._exit(0)
    """
)


def test_a_server_left_behind_by_a_killed_parent_holds_no_pipe_of_its_callers():
    run = subprocess.Popen(
        [sys.executable, "-c", STARTS_AND_DIES], stdout=subprocess.PIPE, cwd=os.getcwd()
    )
    assert run.stdout is not None
    url = run.stdout.readline().decode().strip()
    try:
        run.wait(timeout=30)
        # The parent is gone; the pipe must end now, though its server still runs.
        assert run.stdout.read() == b""
        assert redis.Redis.from_url(url).ping()
    finally:
        redis.Redis.from_url(url).shutdown(nosave=True)
