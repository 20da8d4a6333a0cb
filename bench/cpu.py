"""Where a step's time goes: the CPU Redis spent on it (INFO cpu, user + system) beside
the bench process's own (the client: packing, parsing, and our jobs' worker), per call.

On a shared machine a wall-clock ratio moves with the load; these say which side of the
socket a step is bound by (docs/performance.md, "Posting and fan-out")."""

import time
from collections.abc import Callable


def redis_cpu_seconds(conn) -> float:
    cpu = conn.info("cpu")
    return cpu["used_cpu_user"] + cpu["used_cpu_sys"]


def redis_commands(conn) -> int:
    """Commands Redis has run (INFO commandstats, summed, but INFO's own): read before and
    after a step, how many the step sent."""
    stats = conn.info("commandstats")
    return sum(command["calls"] for name, command in stats.items() if name != "cmdstat_info")


def redis_command_usec(conn) -> float:
    """Microseconds Redis has spent running commands (INFO commandstats, summed, but INFO's
    own): its work for a step without the event loop's and the network's, read before
    and after."""
    stats = conn.info("commandstats")
    return sum(command["usec"] for name, command in stats.items() if name != "cmdstat_info")


class CpuTally:
    """CPU seconds of Redis and of this process, summed per name over the calls it wraps."""

    def __init__(self, conn) -> None:
        self.conn = conn
        self.redis: dict[str, float] = {}
        self.client: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def wrap(self, name: str, run: Callable[[], float]) -> Callable[[], float]:
        """`run` (which times itself and returns its seconds) with its CPU tallied; the
        INFO reads fall outside the seconds it returns."""

        def tallied() -> float:
            redis_before, client_before = redis_cpu_seconds(self.conn), time.process_time()
            elapsed = run()
            client = time.process_time() - client_before
            redis = redis_cpu_seconds(self.conn) - redis_before
            self.redis[name] = self.redis.get(name, 0.0) + redis
            self.client[name] = self.client.get(name, 0.0) + client
            self.calls[name] = self.calls.get(name, 0) + 1
            return elapsed

        return tallied

    def per_call(self, name: str, items: int = 1, scale: float = 1e3) -> dict[str, float]:
        """Redis's and the client's CPU per call of `name` (per item, if `items` a call),
        in milliseconds (or 1/`scale` seconds)."""
        each = self.calls[name] * items
        return {
            "redis": round(self.redis[name] / each * scale, 3),
            "client": round(self.client[name] / each * scale, 3),
        }


def cpu_per_call(conn, calls: dict[str, Callable[[], object]], times: int) -> dict[str, dict]:
    """Runs each of `calls` `times` times in a block (off the clock of the timed samples)
    and returns Redis's and the client's CPU milliseconds per call for each."""
    tally = CpuTally(conn)
    for name, call in calls.items():

        def run(call=call) -> float:
            for _ in range(times):
                call()
            return 0.0

        tally.wrap(name, run)()
    return {name: tally.per_call(name, items=times) for name in calls}
