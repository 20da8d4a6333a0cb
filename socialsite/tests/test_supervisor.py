"""socialsite.supervisor with real child processes: restarts, their backoff, the log."""

import re
import subprocess
import sys
import time

from socialsite.supervisor import Supervisor, exit_description, restart_delay


def python(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code])


def test_restart_delay_doubles_from_the_first_up_to_the_most():
    delays = [restart_delay(failures, first=0.5, most=30) for failures in range(1, 9)]
    assert delays == [0.5, 1, 2, 4, 8, 16, 30, 30]


def test_exit_description_names_the_signal_or_the_code():
    assert exit_description(-9) == "was killed by SIGKILL"
    assert exit_description(3) == "exited with code 3"


def test_a_child_that_keeps_crashing_is_restarted_after_pauses_that_double():
    lines: list[str] = []
    supervisor = Supervisor(log=lines.append, first_delay=0.1, most_delay=0.4)
    supervisor.add("crasher", lambda: python("raise SystemExit(3)"))
    deadline = time.monotonic() + 60
    try:
        while len([line for line in lines if "restarting" in line]) < 5:
            assert time.monotonic() < deadline, lines
            supervisor.tend()
            time.sleep(0.01)
    finally:
        supervisor.stop()
    exits = [line for line in lines if "restarting" in line]
    assert all("make run: crasher (pid " in line and "exited with code 3" in line for line in exits)
    delays = [float(re.search(r"restarting it in ([\d.]+) s", line)[1]) for line in exits]
    assert delays == [0.1, 0.2, 0.4, 0.4, 0.4]
    assert len([line for line in lines if "make run: crasher restarted (pid" in line]) >= 4


def test_a_child_that_was_up_long_enough_is_restarted_after_the_first_pause_again():
    lines: list[str] = []
    supervisor = Supervisor(log=lines.append, first_delay=0.1, most_delay=10, steady_seconds=0.2)
    supervisor.add("sleeper", lambda: python("import time; time.sleep(0.3)"))
    deadline = time.monotonic() + 60
    try:
        while len([line for line in lines if "restarting" in line]) < 3:
            assert time.monotonic() < deadline, lines
            supervisor.tend()
            time.sleep(0.01)
    finally:
        supervisor.stop()
    assert all("restarting it in 0.1 s" in line for line in lines if "restarting" in line)


def test_stop_ends_every_child_for_good():
    supervisor = Supervisor(log=lambda line: None)
    low = supervisor.add("low", lambda: python("import time; time.sleep(60)"))
    high = supervisor.add("high", lambda: python("import time; time.sleep(60)"), layer=1)
    supervisor.stop()
    assert low.returncode is not None and high.returncode is not None
    supervisor.tend()
    assert supervisor.processes() == [low, high]
    assert all(process.poll() is not None for process in supervisor.processes())
