"""The server's side of a stream's connection: how much it holds unsent for the client,
and a way to cut it. What makes a client that stops reading fall behind, and go.

ASGI lets `send` wait while a client reads slowly, but daphne's never does: it hands
each message to Twisted, whose transport keeps what the socket can't take in a buffer
that grows without end. A stream whose client stopped reading would never fall
behind its queue; daphne would hold every event for it. So the streams' ASGI
application is wrapped in `reports_connection`, which puts in the scope (CONNECTION)
a `DaphneConnection`: a stream takes no events off its queue while its connection
holds more than STREAM_SEND_BUFFER_BYTES unsent, and the queue, once full, drops it as
too slow (hub.TOO_SLOW). A chunked response so dropped is complete, but its client
keeps the connection, and with it what daphne and the kernel hold for it, for as long
as it likes: the consumer cuts it after a grace (STREAM_DROPPED_GRACE_SECONDS).

Only daphne on Twisted is known: under any other server (or a test's communicator)
the scope has no CONNECTION and streams are bounded by their queue alone."""

import functools
from collections.abc import Callable

# The scope's key for the stream's connection, when the server is daphne.
CONNECTION = "streaming.connection"


def reports_connection(app):
    """ASGI middleware putting CONNECTION in the scope when the server is daphne. It
    must wrap the application as daphne calls it, before any middleware wraps `send`."""

    async def with_connection(scope, receive, send):
        protocol = _daphne_protocol(send)
        if protocol is not None:
            scope = {**scope, CONNECTION: DaphneConnection(protocol)}
        return await app(scope, receive, send)

    return with_connection


def _daphne_protocol(send: Callable):
    """The Twisted protocol (an HTTP request or a WebSocket) daphne's `send` writes to:
    daphne passes `partial(server.handle_reply, protocol)`; None for anything else."""
    if not (isinstance(send, functools.partial) and send.args):
        return None
    protocol = send.args[0]
    return protocol if hasattr(protocol, "transport") else None


class DaphneConnection:
    """The TCP connection under one of daphne's protocols."""

    def __init__(self, protocol) -> None:
        self._protocol = protocol

    def unsent_bytes(self) -> int:
        """The bytes the transport holds that the socket has not taken yet (0 once the
        connection is gone, or for a transport of another kind, such as TLS)."""
        transport = self._protocol.transport
        buffered = getattr(transport, "dataBuffer", b"")
        offset = getattr(transport, "offset", 0)
        return len(buffered) - offset + getattr(transport, "_tempDataLen", 0)

    def abort(self) -> None:
        """Cuts the connection now, dropping what it holds unsent; daphne then reports
        the disconnect as for any other."""
        transport = self._protocol.transport
        if transport is not None:
            transport.abortConnection()
