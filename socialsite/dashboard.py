"""The numbers operators watch: the admin dashboard and `manage.py stats` show them.

Each app registers a function that reads its own figures (`register`, from its
AppConfig.ready()), so what shows them needn't import the apps; this module reads
the infrastructure's own: Redis's memory and keys, and the job queue."""

from collections.abc import Callable

from . import jobs
from .redis import get_redis

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
    """Memory and key counts from INFO."""
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.info("memory")
    pipe.info("keyspace")
    pipe.dbsize()
    memory, keyspace, dbsize = pipe.execute()
    db = keyspace.get(f"db{conn.connection_pool.connection_kwargs.get('db', 0)}", {})
    return {
        "used_memory": memory["used_memory"],
        "used_memory_human": memory["used_memory_human"],
        "used_memory_peak_human": memory["used_memory_peak_human"],
        "maxmemory": memory.get("maxmemory", 0),
        "keys": dbsize,
        "keys_with_expiry": db.get("expires", 0),
    }
