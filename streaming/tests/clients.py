"""Clients for the streaming endpoints, and waits for another process's cleanup."""

import json
import socket
import time
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed

from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import for_each_primary
from streaming.services import stream_stats


def small_buffered_socket(receive_buffer: int) -> socket.socket:
    """A TCP socket that takes at most about `receive_buffer` bytes its reader hasn't
    read: set before connecting, so the window it offers the server stays that small."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    return sock


class ChunkedResponse:
    """An HTTP/1.1 request on a raw socket, its response read chunk by chunk as sent."""

    def __init__(
        self, base_url: str, method: str, path: str, *, body=b"", headers=None, receive_buffer=0
    ) -> None:
        url = urlsplit(base_url)
        self.sock = small_buffered_socket(receive_buffer) if receive_buffer else socket.socket()
        self.sock.settimeout(10)
        self.sock.connect((url.hostname, url.port))
        head = {"Host": url.netloc, **(headers or {})}
        if body:
            head.setdefault("Content-Type", "application/x-www-form-urlencoded")
            head["Content-Length"] = str(len(body))
        lines = [f"{method} {path} HTTP/1.1", *(f"{k}: {v}" for k, v in head.items())]
        self.sock.sendall("\r\n".join(lines).encode() + b"\r\n\r\n" + body)
        self.buffer = b""
        status_line, *header_lines = self._read_until(b"\r\n\r\n").decode().split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {
            name.lower(): value.strip()
            for name, _, value in (line.partition(":") for line in header_lines)
        }

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            self.buffer += data
        found, self.buffer = self.buffer.split(marker, 1)
        return found

    def _read_exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            self.buffer += data
        found, self.buffer = self.buffer[:size], self.buffer[size:]
        return found

    def next_chunk(self, timeout: float = 10) -> bytes:
        """The next chunk's data (b"" for the last one)."""
        self.sock.settimeout(timeout)
        size = int(self._read_until(b"\r\n"), 16)
        data = self._read_exactly(size)
        assert self._read_exactly(2) == b"\r\n"
        return data

    def next_event(self, timeout: float = 10) -> dict:
        """The next chunk, which must be exactly one JSON line."""
        chunk = self.next_chunk(timeout)
        assert chunk.endswith(b"\r\n") and chunk.count(b"\n") == 1, chunk
        return json.loads(chunk)

    def json(self) -> dict:
        """The whole body of a non-streaming (error) response."""
        return json.loads(self._read_exactly(int(self.headers["content-length"])))

    def close(self) -> None:
        self.sock.close()


def last_words(socket, timeout: float = 15) -> tuple[dict | None, int | None]:
    """The last frame before the server closed the WebSocket, and the close code it sent.
    Either may be None when the connection was reset with the close: daphne resets a
    client that hasn't answered its close within a second (a loaded machine can be that
    slow), and websockets then drops the frames it read along with the close, or the
    kernel drops them unread."""
    last = None
    while True:
        try:
            last = json.loads(socket.recv(timeout=timeout))
        except ConnectionClosed as closed:
            return last, closed.rcvd.code if closed.rcvd else None


def refusal(open_socket, *args, tries: int = 3, **options) -> tuple[dict, int]:
    """The error frame and close code of a WebSocket the server refuses at once, asked
    again if a reset lost the frame: a refusal changes nothing, so it can be repeated."""
    for _ in range(tries):
        last, code = last_words(open_socket(*args, **options))
        if last is not None and code is not None:
            return last, code
    raise AssertionError(f"{tries} refusals in a row lost their error frame to a reset")


def subscribers(redis_conn, channel: str = STATUS_CHANNEL) -> int:
    """Subscribers of `channel`: on a cluster each node counts only its own."""
    return sum(
        dict(server.pubsub_numsub(channel))[channel] for server in for_each_primary(redis_conn)
    )


def wait_until(condition, timeout: float = 15, message: str = "condition") -> None:
    """Polls `condition` (cleanup in another process happens a moment after a close)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{message} still false after {timeout}s")
        time.sleep(0.05)


def wait_for_no_streams(redis_conn) -> None:
    wait_until(lambda: subscribers(redis_conn) == 0, message="no subscriber left")
    wait_until(lambda: stream_stats()["clients"] == 0, message="no client left")
