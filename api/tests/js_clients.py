"""Running the JavaScript clients' scenarios (api/tests/js/*.mjs) with the machine's Node:
each gets its configuration as JSON, says JSON lines (a question, "ready", its result),
and takes answers on stdin; the consent page's part is done here, over HTTP, as a person
would in a browser."""

import json
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from .clients import authorise, logged_in_session

JS = Path(__file__).parent / "js"
# Where the consent page sends the code: never opened (the redirect isn't followed).
REDIRECT_URI = "http://127.0.0.1:9/callback"


def run_scenario(
    script: str,
    config: dict,
    *,
    answer: Callable[[dict], str] | None = None,
    ready: Callable[[], None] | None = None,
    timeout: float = 120,
) -> dict:
    """Runs `script` to its end; its result. `answer` answers its questions, `ready` is
    called when it says it is ready (subscribed: the test then makes what it waits for)."""
    process = subprocess.Popen(
        ["node", str(JS / script), json.dumps({**config, "timeout": timeout - 5})],
        cwd=settings.BASE_DIR,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(timeout, process.kill)
    watchdog.start()
    result = None
    noise: list[str] = []
    try:
        assert process.stdout is not None and process.stdin is not None
        for line in process.stdout:
            if not line.startswith("{"):
                noise.append(line)  # a library's own logging
                continue
            said = json.loads(line)
            if "ask" in said:
                assert answer is not None, f"{script} asked {said['ask']}"
                process.stdin.write(answer(said["ask"]) + "\n")
                process.stdin.flush()
            elif "ready" in said:
                assert ready is not None
                ready()
            elif "result" in said:
                result = said["result"]
        process.wait()
    finally:
        watchdog.cancel()
        process.kill()
    stderr = process.stderr.read() if process.stderr else ""
    said = "".join(noise)
    assert process.returncode == 0, f"{script} failed ({process.returncode}):\n{stderr}\n{said}"
    assert result is not None, stderr
    return result


def consent_as(base: str, login: str, password: str) -> Callable[[dict], str]:
    """Answers a scenario's question for the code: logs in as `login`, opens the authorize
    URL it gives and presses Authorize; the code from the redirect."""

    def answer(question: dict) -> str:
        return authorise(logged_in_session(base, login, password), question["url"])

    return answer


class Poster:
    """Once a streaming scenario is ready, makes what it waits for every half second
    (`make(n)`), until stopped or `most` times: a subscription a server takes in a moment
    after the socket opens still gets one."""

    def __init__(self, make: Callable[[int], object], most: int = 60) -> None:
        self.make, self.most = make, most
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        for n in range(self.most):
            self.make(n)
            if self.stopped.wait(0.5):
                return

    def __enter__(self) -> "Poster":
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)
