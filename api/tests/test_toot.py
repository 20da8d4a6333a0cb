"""The API as the `toot` command line client uses it: `toot login` (its code flow:
toot prints the consent page's URL and reads the code from its input, as a person
pasting it would), then `toot post` and `toot timeline`, each a real toot process."""

import subprocess
import sys

import pytest

from .clients import authorise, logged_in_session
from .conftest import PASSWORD

TIMEOUT = 120


@pytest.fixture
def toot(tmp_path):
    """Runs toot with a configuration of its own; returns what it printed."""
    env = {"XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def run(*args: str, stdin: str = "") -> str:
        done = subprocess.run(
            [sys.executable, "-m", "toot", *args],
            input=stdin, capture_output=True, text=True, env=env, timeout=TIMEOUT,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    run.env = env
    return run


def toot_login(toot, base: str, login: str) -> str:
    """`toot login`: toot prints the URL, the person opens it (logged in), presses
    Authorize, declines toot's offer to open a browser and pastes the code."""
    process = subprocess.Popen(
        [sys.executable, "-m", "toot", "login", "--instance", base],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=toot.env,
    )  # fmt: skip
    try:
        url = ""
        while not url.startswith(f"{base}/oauth/authorize"):
            line = process.stdout.readline()
            assert line, process.stderr.read()
            url = line.strip()
        code = authorise(logged_in_session(base, login, PASSWORD), url)
        out, err = process.communicate(f"n\n{code}\n", timeout=TIMEOUT)
    finally:
        process.kill()
    assert process.returncode == 0, out + err
    return out


def test_toot_logs_in_posts_and_reads_its_timeline(daphne_server, person, toot):
    person("alice")
    said = toot_login(toot, daphne_server, "alice")
    assert "Successfully logged in" in said
    assert "alice@" in toot("auth")
    posted = toot("post", "Hello from toot #cli")
    assert posted.startswith("Toot posted: ")
    status_url = posted.split(": ", 1)[1].strip()
    assert status_url.startswith(f"{daphne_server}/statuses/")
    timeline = toot("timeline", "--once")
    assert "Hello from toot #cli" in timeline
    assert "@alice" in timeline


def test_toot_posts_with_a_visibility_and_a_content_warning(daphne_server, person, toot):
    from timeline.statuses.selectors import get_status

    person("alice")
    toot_login(toot, daphne_server, "alice")
    for visibility in ("unlisted", "private"):
        posted = toot("post", "--visibility", visibility, "--spoiler-text", "Heads up", "quiet")
        status = get_status(int(posted.strip().rstrip("/").rsplit("/", 1)[1]))
        assert status["visibility"] == visibility
        assert (status["spoiler_text"], status["sensitive"]) == ("Heads up", "1")
    timeline = toot("timeline", "--once")
    assert "Visibility: unlisted" in timeline and "Visibility: private" in timeline
