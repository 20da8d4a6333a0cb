"""Where a delivery's Redis time goes: Redis's CPU per delivery into a home as the site
stores it (a list of ids: LPUSH, timeline.feeds.home_list), beside the book's ZADD into
a home stored its way (`posted` in float seconds, newest highest), the ZADD into a
sorted set scored newest first (how the last round stored homes), and an LPUSH placed
in order by a script (the alternative to sorting on read). Pre-packed, off the client's
clock, so the figures are Redis's alone (INFO cpu). docs/storage.md, "Home timelines"."""

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import hiredis
from django.conf import settings

from timeline.statuses.scores import POSTED

from . import seed
from .context import Context
from .cpu import redis_cpu_seconds
from .measure import Rate, Row

# A small home: what the fan-out rows deliver into (their followers' homes hold only
# the bench's statuses), compact as the site's Redis keeps sorted sets of <= 256.
SMALL_HOME = 8


def _send(connection, packed: bytes, replies: int) -> None:
    connection.send_packed_command([packed])
    reader, got = hiredis.Reader(), 0
    while got < replies:
        reader.feed(connection._sock.recv(1 << 16))
        while (reply := reader.gets()) is not False:
            if isinstance(reply, hiredis.ReplyError):
                raise RuntimeError(str(reply))
            got += 1


# The alternative to sorting a home on read (timeline.feeds.home_list): each delivery
# placed in order by a script. Its fast path only (the status is the newest, as every
# delivery here is): a lower bound of what it would cost.
IN_ORDER_SCRIPT = """
local head = redis.call('LINDEX', KEYS[1], 0)
if not head or tonumber(head) < tonumber(ARGV[1]) then
  return redis.call('LPUSH', KEYS[1], ARGV[1])
end
local place = redis.call('LRANGE', KEYS[1], 0, 99)
for _, id in ipairs(place) do
  if tonumber(id) < tonumber(ARGV[1]) then
    return redis.call('LINSERT', KEYS[1], 'BEFORE', id, ARGV[1])
  end
end
return redis.call('RPUSH', KEYS[1], ARGV[1])
"""


@dataclass(frozen=True)
class Layout:
    """A way to store a home: how one is filled with `n` old entries, the command that
    delivers a status to it, and the one that trims it back to `n` (off the clock)."""

    fill: Callable  # (pipe, key, n) -> None
    deliver: Callable  # (key, status_id, posted) -> command tuple
    trim: Callable  # (key, n) -> command tuple
    ziplist_entries: int = SMALL_HOME  # sorted sets of up to this many are ziplists


def _old(n: int) -> list[tuple[str, float]]:
    """`n` (id, posted) entries no status has, newest first, a day old."""
    day_ago = time.time() - 86_400
    return [(str(-i), day_ago - i) for i in range(1, n + 1)]


AS_STORED = Layout(
    lambda pipe, key, n: pipe.rpush(key, *(i for i, _ in _old(n))),
    lambda key, status_id, posted: ("LPUSH", key, status_id),
    lambda key, n: ("LTRIM", key, 0, n - 1),
)
IN_ORDER = replace(
    AS_STORED, deliver=lambda key, status_id, posted: ("EVAL", IN_ORDER_SCRIPT, 1, key, status_id)
)
BOOKS = Layout(
    lambda pipe, key, n: pipe.zadd(key, {i: POSTED.score(t) for i, t in _old(n)}),
    lambda key, status_id, posted: ("ZADD", key, POSTED.score(posted), status_id),
    lambda key, n: ("ZREMRANGEBYRANK", key, *POSTED.trim(n)),
)
# As the last round stored homes: sorted sets scored by negated whole microseconds.
NEWEST_FIRST_ZSET = Layout(
    lambda pipe, key, n: pipe.zadd(key, {i: -round(t * 1e6) for i, t in _old(n)}),
    lambda key, status_id, posted: ("ZADD", key, -round(posted * 1e6), status_id),
    lambda key, n: ("ZREMRANGEBYRANK", key, n, -1),
)


def _homes(conn, name: str, count: int, layout: Layout, n: int) -> list[str]:
    """`count` homes stored as `layout` with `n` entries each."""
    homes = [f"bench:{name}:{{{i}}}" for i in range(count)]
    with seed.ziplists_up_to(conn, layout.ziplist_entries):
        for start in range(0, count, 100):
            pipe = conn.pipeline(transaction=False)
            for home in homes[start : start + 100]:
                layout.fill(pipe, home, n)
            pipe.execute()
    return homes


def run(ctx: Context) -> list[Row]:
    conn, count, size = ctx.conn, ctx.plan.delivery_homes, settings.HOME_TIMELINE_SIZE
    full, small = f"full home ({size:,})", f"small home ({SMALL_HOME})"
    layouts = {
        f"{full}, as stored (a list: LPUSH)": (AS_STORED, size),
        f"{full}, the book's way (ZADD)": (BOOKS, size),
        f"{full}, a sorted set scored newest first (ZADD)": (NEWEST_FIRST_ZSET, size),
        f"{full}, a list, each placed in order by a script": (IN_ORDER, size),
        f"{small}, as stored (a list: LPUSH)": (AS_STORED, SMALL_HOME),
        f"{small}, the book's way (ZADD)": (BOOKS, SMALL_HOME),
    }
    homes = {
        case: _homes(conn, f"d{k}", count, layout, n)
        for k, (case, (layout, n)) in enumerate(layouts.items())
    }
    cpu: dict[str, list[float]] = {case: [] for case in layouts}
    connection = conn.connection_pool.get_connection()
    try:
        first = int(time.time())
        for status_id in range(first, first + ctx.plan.delivery_repeats):
            posted = time.time()
            for case, (layout, n) in layouts.items():
                packed = b"".join(
                    hiredis.pack_command(layout.deliver(home, status_id, posted))
                    for home in homes[case]
                )
                before = redis_cpu_seconds(conn)
                _send(connection, packed, count)
                cpu[case].append(redis_cpu_seconds(conn) - before)
                trims = (hiredis.pack_command(layout.trim(home, n)) for home in homes[case])
                _send(connection, b"".join(trims), count)
    except BaseException:
        connection.disconnect()  # replies may be left on the wire
        raise
    finally:
        conn.connection_pool.release(connection)
        for layout in homes.values():
            conn.unlink(*layout)
    rates = {case: Rate(count / statistics.median(cpu[case]), "deliveries") for case in layouts}
    cases = list(layouts)
    pairs = ((0, 1), (0, 2), (3, 0), (4, 5))
    return [
        Row(
            "delivery",
            f"into a {cases[ours]}: a second of Redis CPU",
            rates[cases[ours]],
            cases[baseline],
            rates[cases[baseline]],
        )
        for ours, baseline in pairs
    ]
