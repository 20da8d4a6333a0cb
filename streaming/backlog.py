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

The same connection takes a stream's lines straight from the hub (`frame_writer`,
`chunk_writer`) while nothing is queued before them and it holds no more than
STREAM_SEND_BUFFER_BYTES: one write of bytes made once per event (a `Line`) for every
stream that gets it, instead of a queue, a task's wakeup and the ASGI send's layers for
each. Over that, lines wait on the queue as above, so a client that stops reading is
still dropped.

Only daphne on Twisted is known: under any other server (or a test's communicator)
the scope has no CONNECTION and streams are bounded by their queue alone."""

import functools
from collections.abc import Callable

from autobahn.websocket.protocol import PreparedMessage
from django.conf import settings
from twisted.web.http import toChunk

# The scope's key for the stream's connection, when the server is daphne.
CONNECTION = "streaming.connection"
LINE_END = b"\r\n"

# Sends a line to one client now, or answers False: not now (queue it).
Writer = Callable[["Line"], bool]


class Line:
    """One event's line for every stream that gets it, each encoding made once: its
    text (queued), a chunked response's body part, a WebSocket text frame."""

    __slots__ = ("text", "_body", "_chunk", "_frame")

    def __init__(self, text: str) -> None:
        self.text = text
        self._body: bytes | None = None
        self._chunk: bytes | None = None
        self._frame: PreparedMessage | None = None

    def body(self) -> bytes:
        if self._body is None:
            self._body = self.text.encode() + LINE_END
        return self._body

    def chunk(self) -> bytes:
        """The body part with its chunked encoding's framing (Twisted's Request's own)."""
        if self._chunk is None:
            self._chunk = b"".join(toChunk(self.body()))
        return self._chunk

    def frame(self) -> PreparedMessage:
        if self._frame is None:
            self._frame = PreparedMessage(self.text.encode(), False, False, False)
        return self._frame


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


def unsent_bytes(transport) -> int:
    """What a Twisted TCP transport holds that its socket has not taken yet."""
    buffered = getattr(transport, "dataBuffer", b"")
    offset = getattr(transport, "offset", 0)
    return len(buffered) - offset + getattr(transport, "_tempDataLen", 0)


def send_now(transport, data: bytes) -> None:
    """Writes `data` to a Twisted transport: straight to the socket when it is plain TCP
    holding nothing unsent, where Twisted's write would keep it until the event loop
    says the socket is writable (two epoll changes and a callback per write: a fifth
    of a delivery's CPU); what the socket doesn't take, and anything else, as Twisted
    writes it."""
    if (
        getattr(transport, "TLS", True)
        or not transport.connected
        or transport.disconnecting
        or unsent_bytes(transport)
    ):
        transport.write(data)
        return
    sent = transport.writeSomeData(data)
    # Not a count: the connection is lost, which Twisted tells the protocol by itself.
    if isinstance(sent, int) and sent < len(data):
        transport.write(data[sent:])


class DaphneConnection:
    """The TCP connection under one of daphne's protocols."""

    def __init__(self, protocol) -> None:
        self._protocol = protocol

    def unsent_bytes(self) -> int:
        """The bytes the transport holds that the socket has not taken yet (0 once the
        connection is gone, or for a transport of another kind, such as TLS)."""
        return unsent_bytes(self._protocol.transport)

    def frame_writer(self) -> Writer:
        """Writes lines as text frames to this WebSocket, once the handshake is done."""
        protocol, limit = self._protocol, settings.STREAM_SEND_BUFFER_BYTES

        def write(line: Line) -> bool:
            if protocol.state != protocol.STATE_OPEN or unsent_bytes(protocol.transport) > limit:
                return False
            if protocol._perMessageCompress is None and not protocol.send_queue:
                send_now(protocol.transport, line.frame().payloadHybi)
            else:  # never under daphne, which negotiates no compression
                protocol.sendPreparedMessage(line.frame())
            return True

        return write

    def chunk_writer(self) -> Writer:
        """Writes lines as body parts of this response, once its headers are sent."""
        protocol, limit = self._protocol, settings.STREAM_SEND_BUFFER_BYTES

        def write(line: Line) -> bool:
            # What daphne's protocol checks, and then Twisted's Request.write does.
            if protocol.finished or protocol.channel is None:
                return False
            if unsent_bytes(protocol.transport) > limit:
                return False
            protocol.sentLength += len(line.body())
            send_now(protocol.transport, line.chunk() if protocol.chunked else line.body())
            return True

        return write

    def allow_close(self, seconds: float) -> None:
        """Gives a WebSocket client `seconds` to answer the close the server sends next
        (autobahn's closeHandshakeTimeout, 1 s under daphne) before it is cut: a client
        with megabytes still in the sockets' buffers reads them first."""
        self._protocol.closeHandshakeTimeout = seconds

    def abort(self) -> None:
        """Cuts the connection now, dropping what it holds unsent; daphne then reports
        the disconnect as for any other."""
        transport = self._protocol.transport
        if transport is not None:
            transport.abortConnection()
