"""daphne with deadlines for slow clients (slowloris): `python -m socialsite.daphne_server
[--header-timeout S] [--body-timeout S] [--body-min-rate B] <daphne's own options>`.

Twisted's HTTP channel, under daphne, has only an idle timeout (12 hours as daphne
builds it), which every byte received starts again: a client sending a request a byte
at a time, or a body a few bytes a minute, holds its connection for ever, and a few
thousand of them hold every descriptor. Here, as Apache's mod_reqtimeout and nginx's
client_header_timeout do:

- a request's line and headers must all arrive within `--header-timeout` seconds of the
  connection's opening, or of the previous response's end on a kept-alive connection
  (so this also bounds how long a kept-alive connection may sit idle);
- its body must arrive within `--body-timeout` seconds of the headers, a deadline that
  each `--body-min-rate` bytes received put off by a second (a slow but steady upload
  goes on; a trickle doesn't).

A client that misses a deadline gets `408 Request Timeout` (nothing, if it had sent no
byte of a next request) and its connection is closed. A request being answered has no
deadline (a stream's response lasts as long as it lasts), nor has a WebSocket once
upgraded: daphne's pings watch those."""

import argparse
import logging
import sys
from dataclasses import dataclass
from typing import Any

import daphne.server
from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory
from twisted.internet.protocol import connectionDone
from twisted.python.failure import Failure
from twisted.web import http

logger = logging.getLogger(__name__)

REQUEST_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
)


@dataclass(frozen=True)
class Deadlines:
    """How long a client may take to send a request: seconds for the line and headers,
    seconds for the body, and the body's bytes a second that put its deadline off."""

    header_seconds: float
    body_seconds: float
    body_min_rate: float


class DeadlineChannel(http.HTTPChannel):
    """Twisted's HTTP/1.1 channel, closing a client that sends a request too slowly."""

    def __init__(self, deadlines: Deadlines) -> None:
        super().__init__()
        self.deadlines = deadlines
        # An IDelayedCall (zope interfaces are opaque to mypy without its zope plugin).
        self._deadline: Any = None
        # What the deadline waits for: "headers", "body" or "" (none running).
        self._awaiting = ""
        # Whether any byte of the request awaited has come.
        self._begun = False

    def connectionMade(self) -> None:
        super().connectionMade()
        self._await("headers", self.deadlines.header_seconds)

    def dataReceived(self, data: bytes) -> None:
        if self._awaiting == "headers":
            self._begun = True
        super().dataReceived(data)

    def allHeadersReceived(self) -> None:
        self._await("body", self.deadlines.body_seconds)
        super().allHeadersReceived()

    def rawDataReceived(self, data: bytes) -> None:
        if self._awaiting == "body" and self._deadline is not None:
            self._deadline.delay(len(data) / self.deadlines.body_min_rate)
        super().rawDataReceived(data)

    def allContentReceived(self) -> None:
        self._cancel()
        super().allContentReceived()

    def requestDone(self, request: http.Request) -> None:
        # Before the channel reads what the client sent meanwhile: that may be the whole
        # next request, whose headers stop this deadline as soon as they are read.
        if self.persistent:
            self._await("headers", self.deadlines.header_seconds)
        super().requestDone(request)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._cancel()
        super().connectionLost(reason)

    def _await(self, what: str, seconds: float) -> None:
        self._cancel()
        self._awaiting, self._begun = what, False
        self._deadline = self.callLater(seconds, self._too_slow)

    def _cancel(self) -> None:
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline, self._awaiting = None, ""

    def _too_slow(self) -> None:
        what, begun = self._awaiting, self._begun
        self._deadline, self._awaiting = None, ""
        transport: Any = self.transport
        if what == "body" or begun:
            peer = transport.getPeer()
            client = f"{peer.host}:{peer.port}" if hasattr(peer, "port") else str(peer)
            logger.info("408: %s sent a request's %s too slowly", client, what)
            transport.write(REQUEST_TIMEOUT_RESPONSE)
        # Closes, and aborts after abortTimeout a client that won't read what is left.
        self.timeoutConnection()


class DeadlineHTTPFactory(HTTPFactory):
    """daphne's HTTP factory, its connections DeadlineChannels."""

    def __init__(self, server: daphne.server.Server, deadlines: Deadlines) -> None:
        super().__init__(server)
        self.deadlines = deadlines

    def protocol(self) -> DeadlineChannel:
        # Twisted's factory wraps its channel to switch to HTTP/2 after TLS's ALPN; this
        # server speaks plain HTTP/1.1 (a proxy in front terminates TLS).
        return DeadlineChannel(self.deadlines)


def main(argv: list[str]) -> None:
    """Runs daphne with argv, its connections bound by the deadlines it names first."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--header-timeout", type=float, default=20)
    parser.add_argument("--body-timeout", type=float, default=20)
    parser.add_argument("--body-min-rate", type=float, default=500)
    options, daphne_argv = parser.parse_known_args(argv)
    deadlines = Deadlines(options.header_timeout, options.body_timeout, options.body_min_rate)

    def factory(server: daphne.server.Server) -> DeadlineHTTPFactory:
        return DeadlineHTTPFactory(server, deadlines)

    # daphne's Server.run makes its HTTP factory by this module-level name, with no
    # option to pass another one: in this process it makes ours.
    daphne.server.HTTPFactory = factory
    CommandLineInterface().run(daphne_argv)


if __name__ == "__main__":
    main(sys.argv[1:])
