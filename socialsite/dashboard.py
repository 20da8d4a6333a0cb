"""The numbers operators watch: the admin dashboard and `manage.py stats` show them.

Each app registers a function that reads its own figures (`register`, from its
AppConfig.ready()), so what shows them needn't import the apps; this module reads
the infrastructure's own: Redis's memory and keys, and the job queue."""

from collections.abc import Callable

from . import jobs
from .redis import for_each_primary, get_redis

Reader = Callable[[], dict]

_readers: list[Reader] = []


def register(read: Reader) -> None:
    """Adds `read()`'s figures (a dict, merged into the others) to the dashboard's."""
    if read not in _readers:
        _readers.append(read)


def figures() -> dict:
    """Every figure: Redis's, the job queue's, then each app's, in the order they came."""
    found = {"redis": redis_stats(), "jobs": jobs.queue_stats()}
    for read in _readers:
        found.update(read())
    return found


def redis_stats() -> dict:
    """Memory and key counts from INFO, summed over a cluster's primaries."""
    totals = {"used_memory": 0, "used_memory_peak": 0, "maxmemory": 0, "keys": 0}
    expires = 0
    servers = for_each_primary(get_redis())
    for server in servers:
        pipe = server.pipeline(transaction=False)
        pipe.info("memory")
        pipe.info("keyspace")
        pipe.dbsize()
        memory, keyspace, dbsize = pipe.execute()
        for name in ("used_memory", "used_memory_peak", "maxmemory"):
            totals[name] += memory.get(name, 0)
        totals["keys"] += dbsize
        db = f"db{server.connection_pool.connection_kwargs.get('db', 0)}"
        expires += keyspace.get(db, {}).get("expires", 0)
    return {
        **totals,
        "used_memory_human": human_bytes(totals["used_memory"]),
        "used_memory_peak_human": human_bytes(totals["used_memory_peak"]),
        "keys_with_expiry": expires,
        "servers": len(servers),
    }


def human_bytes(count: int) -> str:
    """As Redis writes sizes in INFO (1.50M), for a sum of several servers' figures."""
    size, unit = float(count), "B"
    for bigger in ("K", "M", "G"):
        if size < 1024:
            break
        size, unit = size / 1024, bigger
    return f"{count}B" if unit == "B" else f"{size:.2f}{unit}"
