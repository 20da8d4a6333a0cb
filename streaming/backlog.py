"""How much the server holds unsent for a stream's client: what makes a client that
stops reading fall behind.

ASGI lets `send` wait while a client reads slowly, but daphne's never does: it hands
each message to Twisted, whose transport keeps what the socket can't take in a buffer
that grows without end. A stream whose client stopped reading would never fall
behind its queue; daphne would hold every event for it. So the streams' ASGI
application is wrapped in `reports_unsent_bytes`, which gives the consumers, in the
scope, a function that reads that buffer's size; a stream stops taking events off its
queue while its connection holds more than STREAM_SEND_BUFFER_BYTES unsent, and the
queue, once full, drops it as too slow (hub.TOO_SLOW).

Only daphne on Twisted's TCP transports is known: under any other server (or a test's
communicator) the scope has no such function and streams are bounded by their queue
alone."""

import functools
from collections.abc import Callable

# The scope's key for the function that says how many bytes the server holds unsent.
UNSENT_BYTES = "streaming.unsent_bytes"


def reports_unsent_bytes(app):
    """ASGI middleware putting UNSENT_BYTES in the scope when the server is daphne. It
    must wrap the application as daphne calls it, before any middleware wraps `send`."""

    async def with_unsent_bytes(scope, receive, send):
        protocol = _daphne_protocol(send)
        if protocol is not None:
            scope = {**scope, UNSENT_BYTES: functools.partial(unsent_bytes, protocol)}
        return await app(scope, receive, send)

    return with_unsent_bytes


def _daphne_protocol(send: Callable):
    """The Twisted protocol (an HTTP request or a WebSocket) daphne's `send` writes to:
    daphne passes `partial(server.handle_reply, protocol)`; None for anything else."""
    if not (isinstance(send, functools.partial) and send.args):
        return None
    protocol = send.args[0]
    return protocol if hasattr(protocol, "transport") else None


def unsent_bytes(protocol) -> int:
    """The bytes `protocol`'s TCP transport holds that the socket has not taken yet
    (0 once the connection is gone, or for a transport of another kind, such as TLS)."""
    transport = protocol.transport
    buffered = getattr(transport, "dataBuffer", b"")
    return len(buffered) - getattr(transport, "offset", 0) + getattr(transport, "_tempDataLen", 0)
