"""CPU-heavy work (decoding and redrawing pictures) done off the request slot: in a
process of its own, while the request that asked for it gives its place among the
HTTP_CONCURRENCY (socialsite.concurrency) to the next one in line.

A page is a few milliseconds of Python; redrawing a 40-megapixel picture is hundreds,
and in the request's own thread every page of the process would wait for it (one
uploader in a loop took a victim's home from 6 ms to 1.7 s). Here the work runs in a
child forked from a small server process (multiprocessing's forkserver, so no child
inherits daphne's threads or sockets), at the lowest CPU priority, with a
memory ceiling; at most OFF_SLOT_PROCESSES run at once per server process, and one
that is not done within OFF_SLOT_SECONDS, waiting included, is killed."""

import math
import multiprocessing
import os
import pickle
import resource
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from django.conf import settings

from .concurrency import off_the_slot

Result = TypeVar("Result")

# Pages first: a child's work takes what CPU the server processes leave. Nice 19 weighs
# 1.5% of a normal process in Linux's scheduler: beside a reader of their home, one client
# uploading in a loop cost the reader's p50 1.0-1.4x quiet at nice 19, 2.0x at nice 10
# (2 shared cores at load 5-6, `python -m bench --only uploads`), and each upload still
# took ~1.6 s.
NICENESS = 19
# A child's address space: a 40-megapixel RGBA canvas is 160 MB, and a few copies of it
# fit; a picture that needs more dies in its child, not in daphne.
MEMORY_BYTES = 1536 * 1024 * 1024
# The modules a child needs, imported once by the fork server: each child starts ready.
PRELOADED = ["socialsite.pictures"]

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOADED)
_places_lock = threading.Lock()
_places: dict[int, threading.BoundedSemaphore] = {}


class Busy(Exception):
    """No process was free for the work in time: try again in `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Overrun(Exception):
    """The work ran past its time (or died, out of memory) and its process was killed."""


def _places_for(processes: int) -> threading.BoundedSemaphore:
    with _places_lock:
        return _places.setdefault(processes, threading.BoundedSemaphore(processes))


def run(function: Callable[..., Result], /, *args: Any) -> Result:
    """`function(*args)` in a child process, off the request's slot: its result, or the
    exception it raised (the same class, so a ValueError stays one). Busy if no process
    was free before OFF_SLOT_SECONDS; Overrun if the work wasn't done by then. `function`
    and its arguments and result must pickle (a module-level function)."""
    seconds = settings.OFF_SLOT_SECONDS
    deadline = time.monotonic() + seconds
    places = _places_for(settings.OFF_SLOT_PROCESSES)
    with off_the_slot():
        if not places.acquire(timeout=seconds):
            raise Busy("The server is busy with other uploads.", retry_after=math.ceil(seconds))
        try:
            return _in_child(function, args, deadline)
        finally:
            places.release()


def _in_child(function: Callable[..., Result], args: tuple[Any, ...], deadline: float) -> Result:
    receiving, sending = _context.Pipe(duplex=False)
    child = _context.Process(target=_work, args=(sending, function, args), daemon=True)
    child.start()
    sending.close()
    try:
        # The reply is read before the child is joined: a big one fills the pipe, and
        # the child can't exit until it is read.
        if not receiving.poll(max(0.0, deadline - time.monotonic())):
            raise Overrun("The work took too long.")
        try:
            outcome, value = receiving.recv()
        except EOFError:
            raise Overrun("The work's process died.") from None
    finally:
        receiving.close()
        if child.is_alive():
            child.kill()
        child.join()
    if outcome == "raised":
        raise value
    result: Result = value
    return result


def _work(sending: Connection, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """The child: lowers its priority and memory, runs the work, sends back what came
    of it ("returned" or "raised", and the value)."""
    os.nice(NICENESS)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    try:
        outcome = ("returned", function(*args))
    except Exception as error:
        outcome = ("raised", error)
        try:
            pickle.loads(pickle.dumps(error))
        except Exception:
            # An exception whose arguments don't rebuild it (a custom __init__) would
            # fail in the parent instead, far from its cause: it goes back as its text.
            outcome = ("raised", RuntimeError(f"{type(error).__name__}: {error}"))
    sending.send(outcome)
    sending.close()
