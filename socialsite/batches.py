"""Batches of Redis commands whose replies are read by name: each queued command gives
back a handle (Reply) that holds its reply once the batch has run. PackedPipeline packs
bulk work itself (pages, fan-out); Batch does the same on a redis-py pipeline, for reads
that want redis-py's parsing."""

import contextlib
import inspect
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import hiredis
import redis
from redis._parsers import BaseParser
from redis.crc import key_slot

T = TypeVar("T")


class ReplyNotRead(RuntimeError):
    """A queued read's reply was asked for before its batch ran."""


class Reply:
    """The handle of one queued read: `value` is its reply once the batch (a
    PackedPipeline or a Batch) has run, decoded as its client decodes; asking before is
    an error. A `for_each_key` run has one handle: a list, one reply per key; with
    several command shapes, a tuple of such lists, one per shape in the order given."""

    # Unset until the batch runs: no __init__, as a page makes dozens of these.
    __slots__ = ("_value",)
    _value: Any

    @property
    def value(self) -> Any:
        try:
            return self._value
        except AttributeError:
            raise ReplyNotRead("This read's batch has not run yet.") from None

    def __repr__(self) -> str:
        return f"Reply({self._value!r})" if hasattr(self, "_value") else "Reply(not read)"


if TYPE_CHECKING:

    class Commands:
        """redis-py's command methods as a batch's are: each queues its command and
        returns the command's Reply. (redis-py types them for its own clients, returning
        the reply or the pipeline, so mypy is shown this instead of CoreCommands.)"""

        def __getattr__(self, name: str) -> Callable[..., Reply]: ...

else:
    Commands = redis.commands.CoreCommands


class PackedPipeline(Commands):
    """A pipeline for bulk work: commands are packed as they are queued and sent in one
    round trip, and the replies are read in bulk, raw, with no per-command parsing (as
    the server sent them, decoded to str if the client decodes; redis-py 8 speaks RESP3
    on the wire, so a hash is a dict, a set a list, a score a float).

    A fan-out pass is thousands of commands; on a redis-py pipeline the client's work per
    command costs several times what Redis spends running it (see `make bench`); a page
    of 30 statuses read here costs about half. Queue any command by its redis-py method;
    `for_each_key` packs one command shape for many keys at the cost of a string join.
    Each queued command (and each `for_each_key` run) returns a Reply, filled by
    `execute`: replies are read by name, never by their place in the pipeline.

    Given a RedisCluster client, commands are grouped by the node that serves their
    key's slot: each node gets its share in one round trip (all at once), and the
    replies come back in the order the commands were queued. A slot that moves while
    the pipeline runs (resharding) makes its commands fail with MOVED, raised here:
    the callers' steps are idempotent and are redone."""

    # A full buffer goes out while the rest is packed, so Redis works as we pack.
    FLUSH_BYTES = 64 * 1024

    def __init__(self, client: redis.Redis | redis.RedisCluster) -> None:
        self._nodes: dict[str | None, NodeShare] = {}
        self._queued = 0
        # Each handle and where its replies are: (handle, first place, how many or None
        # for one command's, how many command shapes a key).
        self._handles: list[tuple[Reply, int, int | None, int, bool]] = []
        self._text = False
        self._cluster: redis.RedisCluster | None = None
        self._pool: redis.ConnectionPool | None = None
        if isinstance(client, redis.RedisCluster):
            self._cluster = client
        else:
            self._pool = client.connection_pool

    def execute_command(self, *args: Any, **options: Any) -> Reply:
        slot = _slot(self._cluster, args) if self._cluster else None
        # As _handle does, inline: every page queues dozens of commands.
        handle = Reply()
        self._handles.append((handle, self._queued, None, 1, self._text))
        self._queue(self._share(slot), hiredis.pack_command(args), 1)
        return handle

    @contextlib.contextmanager
    def as_text(self) -> Iterator[None]:
        """Within it, the commands queued get handles that hold their replies as str, as
        a client that decodes would give them (for reads that ride a pipeline of the
        cache's client, whose replies are bytes)."""
        self._text = True
        try:
            yield
        finally:
            self._text = False

    def _handle(self, first: int, count: int | None, shapes: int) -> Reply:
        handle = Reply()
        self._handles.append((handle, first, count, shapes, self._text))
        return handle

    def for_each_key(self, keys: Iterable[str], *commands: tuple[Any, ...]) -> Reply:
        """Queues each of `commands` (a name, then the arguments after the key) for every
        key; returns one handle for them all: a list of replies, one per key, or with
        several commands a tuple of such lists, one per command in the order given."""
        shapes = [
            hiredis.pack_command((name, _KEY, *args)).split(_KEY_BULK, 1)
            for name, *args in commands
        ]
        if self._cluster is None:
            keys = list(keys)
            handle = self._handle(self._queued, len(keys) * len(shapes), len(shapes))
            self._queue(self._share(None), _pack(keys, shapes), len(keys) * len(shapes))
            return handle
        # Each node's keys in one string, each key's replies still in their place.
        by_node: dict[NodeShare, list[tuple[int, str]]] = {}
        # The slot from its CRC directly and each slot's node looked up once: redis-py's
        # keyslot() and get_node_from_slot() per key cost a fan-out worker more CPU than
        # Redis spends delivering (see make bench's scale rows).
        by_slot: dict[int, NodeShare] = {}
        for place, key in enumerate(keys):
            slot = key_slot(key.encode())
            share = by_slot.get(slot) or by_slot.setdefault(slot, self._share(slot))
            by_node.setdefault(share, []).append((place, key))
        first, per_key = self._queued, len(shapes)
        for share, placed in by_node.items():
            places = [(first + place * per_key, per_key) for place, _ in placed]
            share.add(_pack([key for _, key in placed], shapes), places)
            self._flush_if_full(share)
        self._queued = first + sum(map(len, by_node.values())) * per_key
        return self._handle(first, self._queued - first, per_key)

    def execute_repeating(
        self, command: tuple[str, ...], shape: tuple[Any, ...], values: Iterable[object]
    ) -> tuple[Reply, list[str]]:
        """Queues ONE command: `command` (its name, then its one key), then `shape` and a
        value for each of `values` (BITFIELD_RO key GET u1 7 GET u1 9 ...), packed with a
        join per length of value (hiredis packs a fan-out job's 30,000 such arguments
        several times slower). The values go grouped by length: returns the command's
        handle and the values in the order sent, which its reply follows."""
        by_length: dict[int, list[str]] = {}
        for value in map(str, values):
            by_length.setdefault(len(value), []).append(value)
        total = len(command) + sum(map(len, by_length.values())) * (len(shape) + 1)
        # hiredis's stub types pack_command's argument as a tuple of one item.
        head = hiredis.pack_command(command)  # type: ignore[arg-type]
        packed = [b"*%d\r\n" % total + head.split(b"\r\n", 1)[1]]
        between = hiredis.pack_command(shape).split(b"\r\n", 1)[1].decode()
        for length, group in by_length.items():
            lead = f"{between}${length}\r\n"
            packed.append((lead + f"\r\n{lead}".join(group) + "\r\n").encode())
        slot = key_slot(command[1].encode()) if self._cluster else None
        handle = self._handle(self._queued, None, 1)
        self._queue(self._share(slot), b"".join(packed), 1)
        return handle, [value for group in by_length.values() for value in group]

    def _share(self, slot: int | None) -> "NodeShare":
        if self._cluster is None:
            name, pool = None, self._pool
            # Without a cluster, __init__ took its client's pool.
            assert pool is not None
        else:
            # A cluster's commands all have a key, so a slot.
            assert slot is not None
            node = self._cluster.nodes_manager.get_node_from_slot(slot)
            name, pool = node.name, self._cluster.get_redis_connection(node).connection_pool
        share = self._nodes.get(name)
        if share is None:
            share = self._nodes[name] = NodeShare(pool)
        return share

    def _queue(self, share: "NodeShare", packed: bytes, count: int) -> None:
        """`packed` holds `count` commands, whose replies take the next places."""
        share.add(packed, [(self._queued, count)])
        self._queued += count
        self._flush_if_full(share)

    def _flush_if_full(self, share: "NodeShare") -> None:
        if share.buffered >= self.FLUSH_BYTES:
            self._guarded(share.flush)

    def _guarded(self, step: Callable[[], T]) -> T:
        try:
            return step()
        except BaseException:
            self._release(broken=True)
            raise

    def send(self) -> None:
        """Sends what is queued so far, so that Redis runs it while more is queued; the
        replies are read by execute()."""
        for share in self._nodes.values():
            self._guarded(share.flush)

    def execute(self) -> list[Any]:
        """Sends what is left, reads every reply and fills the handles; raises the first
        error reply, if any, once all are read (as a redis-py pipeline does). Returns the
        raw replies (for bulk writes that only check them)."""
        if not self._queued:
            # Only runs of no keys: each is filled with no replies.
            self._fill([])
            return []
        shares = list(self._nodes.values())
        for share in shares:
            self._guarded(share.flush)
        got = [self._guarded(share.read) for share in shares]
        replies: list[Any]
        if len(shares) == 1:
            replies = got[0]
        else:
            replies = [None] * self._queued
            for share, theirs in zip(shares, got, strict=True):
                done = 0
                for start, count in share.places:
                    replies[start : start + count] = theirs[done : done + count]
                    done += count
        self._release(broken=False)
        self._fill(replies)
        for reply in replies:
            if isinstance(reply, hiredis.ReplyError):
                if self._cluster and str(reply).startswith(("MOVED", "ASK")):
                    # Slots moved: the next pipeline (the step redone) asks the new map.
                    self._cluster.nodes_manager.initialize()
                raise reply_error(str(reply))
        return replies

    def _fill(self, replies: list[Any]) -> None:
        handles, self._handles = self._handles, []
        value: Any
        for handle, first, count, shapes, text in handles:
            if count is None:
                value = replies[first]
            else:
                value = replies[first : first + count]
                if shapes > 1:
                    value = tuple(value[shape::shapes] for shape in range(shapes))
            handle._value = as_text(value) if text else value

    def __del__(self) -> None:
        # Dropped after a flush but before execute() (an error while queueing): the
        # replies left on the wire make the connection useless, but not lost to the pool.
        self._release(broken=True)

    def _release(self, *, broken: bool) -> None:
        for share in self._nodes.values():
            share.release(broken=broken)
        self._nodes.clear()
        self._queued = 0
        if broken:
            self._handles = []


class NodeShare:
    """What a PackedPipeline has for one server: the packed commands not sent yet, the
    connection they go out on, and the places (start, count) of their replies."""

    def __init__(self, pool: redis.ConnectionPool) -> None:
        self.pool = pool
        decode = pool.connection_kwargs.get("decode_responses")
        self.encoding = pool.connection_kwargs.get("encoding", "utf-8") if decode else None
        self.connection: redis.Connection | None = None
        self.chunks: list[bytes] = []
        self.buffered = 0
        self.places: list[tuple[int, int]] = []

    def add(self, packed: bytes, places: list[tuple[int, int]]) -> None:
        self.chunks.append(packed)
        self.buffered += len(packed)
        self.places += places

    def flush(self) -> None:
        if not self.chunks:
            return
        if self.connection is None:
            self.connection = self.pool.get_connection()
        self.connection.send_packed_command([b"".join(self.chunks)])
        self.chunks, self.buffered = [], 0

    def read(self) -> list[Any]:
        # Our own reader on the connection's socket: nothing else is in flight on it, and
        # redis-py's per-reply path is what PackedPipeline exists to avoid.
        count = sum(count for _, count in self.places)
        reader = hiredis.Reader(encoding=self.encoding)
        # Flushed before it is read, so connected.
        assert self.connection is not None
        sock = self.connection._sock
        assert sock is not None
        replies: list[Any] = []
        while len(replies) < count:
            try:
                data = sock.recv(1 << 16)
            except TimeoutError as error:
                # As redis-py raises them, so callers (and the 503 page) know them.
                raise redis.TimeoutError("Timeout reading from Redis") from error
            except OSError as error:
                raise redis.ConnectionError(f"Error reading from Redis: {error}") from error
            if not data:
                raise redis.ConnectionError("Redis closed the connection mid-pipeline")
            reader.feed(data)
            while (reply := reader.gets()) is not False:
                replies.append(reply)
        return replies

    def release(self, *, broken: bool) -> None:
        if self.connection is not None:
            if broken:
                # Replies may still be on the wire: the connection can't be reused.
                self.connection.disconnect()
            self.pool.release(self.connection)
        self.connection = None
        self.chunks, self.buffered, self.places = [], 0, []


class Batch(Commands):
    """A batch of reads on a redis-py pipeline (sync or asyncio, one server's or a
    cluster's; transaction=False): each command queued by its redis-py method returns a
    Reply, filled with the reply as redis-py parses it when `execute` runs (awaited, for
    an asyncio client). For the reads that want redis-py's parsing (scores as floats,
    pairs as tuples); `pipe`, the pipeline itself, takes what is not read by name (a
    script, writes)."""

    def __init__(self, client: Any) -> None:
        # `client` a socialsite.redis.Client or its asyncio peer, typed Any as they are.
        self.pipe = client.pipeline(transaction=False)
        self._handles: list[tuple[int, Reply]] = []

    def execute_command(self, *args: Any, **options: Any) -> Reply:
        self.pipe.execute_command(*args, **options)
        handle = Reply()
        self._handles.append((len(self.pipe) - 1, handle))
        return handle

    def execute(self) -> Any:
        """Runs the pipeline and fills the handles; returns its replies (awaitable, for an
        asyncio client)."""
        # Any: a list, or an awaitable of one, as the client is sync or asyncio.
        replies = self.pipe.execute()
        if inspect.isawaitable(replies):
            return self._filled_when_read(replies)
        self._fill(replies)
        return replies

    async def _filled_when_read(self, pending: Awaitable[list[Any]]) -> list[Any]:
        replies = await pending
        self._fill(replies)
        return replies

    def _fill(self, replies: list[Any]) -> None:
        handles, self._handles = self._handles, []
        for place, handle in handles:
            handle._value = replies[place]


def reply_error(text: str) -> redis.RedisError:
    """The exception redis-py raises for the error reply `text`: LOADING is a
    BusyLoadingError, MASTERDOWN a MasterDownError, TRYAGAIN a TryAgainError..., so that
    callers (and the 503 page) tell a Redis that can't answer yet from a bad command."""
    # redis-py's own table of error codes (its parsers' classmethod), so a PackedPipeline
    # raises what a redis-py pipeline would for the same reply.
    error: redis.RedisError = BaseParser.parse_error(text)
    return error


def as_text(reply: Any) -> Any:
    """A raw reply of a client that doesn't decode (bytes, and lists and maps of them),
    as the same reply from one that does (str)."""
    if isinstance(reply, bytes):
        return reply.decode()
    if isinstance(reply, list):
        return [as_text(item) for item in reply]
    if isinstance(reply, dict):
        return {as_text(key): as_text(value) for key, value in reply.items()}
    return reply


# Commands whose keys follow their count (the first argument): redis-py would ask the server
# which are keys (COMMAND GETKEYS), a round trip for each such command queued.
_COUNTED_KEYS = frozenset({"ZUNION", "ZINTER", "ZDIFF"})


def _slot(cluster: redis.RedisCluster, args: tuple[Any, ...]) -> int | None:
    """The slot that serves the command `args`, worked out here for _COUNTED_KEYS."""
    if str(args[0]).upper() not in _COUNTED_KEYS:
        return cluster.determine_slot(*args)
    names = args[2 : 2 + int(args[1])]
    slots = {key_slot(name.encode() if isinstance(name, str) else name) for name in names}
    if len(slots) != 1:
        raise redis.RedisClusterException(f"{args[0]}'s keys are not all in one slot")
    return slots.pop()


def _pack(keys: list[str], shapes: list[list[bytes]]) -> bytes:
    """Each command shape (its packed head and tail around the key) for every key."""
    bulks = [b"$%d\r\n%s\r\n" % (len(key), key) for key in map(str.encode, keys)]
    if len(shapes) == 1 and bulks:
        # One shape (a fan-out's ZADD): joined in C, each key between a tail and a head.
        ((head, tail),) = shapes
        return head + (tail + head).join(bulks) + tail
    return b"".join(head + bulk + tail for bulk in bulks for head, tail in shapes)


# The key's place in a packed command shape: a byte no key of ours contains.
_KEY = "\0"
_KEY_BULK = b"$1\r\n\0\r\n"
