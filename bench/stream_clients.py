"""The streaming bench's clients, read without a client library: one asyncio Protocol a
connection, whose data_received takes apart every frame or chunk one read brings (one
timestamp for all of them) and hands each line to the client's `receive`. With the
websockets library and asyncio streams each message cost a client process about as
much CPU as daphne spent sending it, on the same two cores; what the bench checks
(every line, its JSON, its latency) is the same."""

import asyncio
import base64
import os
import time
from urllib.parse import urlencode, urlsplit

WS_TEXT, WS_CLOSE, WS_PING, WS_PONG = 0x1, 0x8, 0x9, 0xA


class LineClient(asyncio.Protocol):
    """One stream's connection: a WebSocket (`websocket`) or a chunked HTTP response.
    `opened` says whether the stream was accepted; `closed` ends with the connection."""

    def __init__(self, client, websocket: bool) -> None:
        self.client = client
        self.websocket = websocket
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[bool] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.buffer = bytearray()
        self.pending = b""  # a chunked line's start, when a chunk ends inside it
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def connection_lost(self, error) -> None:
        if not self.opened.done():
            self.opened.set_result(False)
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.opened.done() and not self.read_head():
            return
        at = time.time()
        if self.websocket:
            self.read_frames(at)
        else:
            self.read_chunks(at)

    def read_head(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        status = int(self.buffer[: self.buffer.find(b"\r\n")].split()[1])
        del self.buffer[: end + 4]
        accepted = status == (101 if self.websocket else 200)
        if not accepted:
            self.client.ended = f"HTTP {status}"
            self.transport.close()
        self.opened.set_result(accepted)
        return accepted

    def read_frames(self, at: float) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, size, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if size == 126:
                size, start = int.from_bytes(buffer[2:4], "big"), 4
            elif size == 127:
                size, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + size:
                return
            payload = bytes(buffer[start : start + size])
            del buffer[: start + size]
            if opcode == WS_TEXT:
                self.client.receive(payload, at)
            elif opcode == WS_PING:  # daphne's keep-alive: answered, or it hangs up
                self.transport.write(masked_frame(WS_PONG, payload))
            elif opcode == WS_CLOSE:
                self.transport.close()

    def read_chunks(self, at: float) -> None:
        buffer = self.buffer
        while (line_end := buffer.find(b"\r\n")) >= 0:
            size = int(buffer[:line_end], 16)
            if len(buffer) < line_end + 2 + size + 2:
                return
            data = self.pending + bytes(buffer[line_end + 2 : line_end + 2 + size])
            del buffer[: line_end + 2 + size + 2]
            if size == 0:
                self.transport.close()
                return
            *lines, self.pending = data.split(b"\r\n")
            for line in lines:
                self.client.receive(line, at)


def masked_frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (clients must mask theirs), of at most 125 bytes."""
    mask = os.urandom(4)
    body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


def request(client, base: str) -> bytes:
    """The request opening `client`'s stream: a WebSocket handshake, or sample.json's GET
    and filter.json's POST (its parameters as a form)."""
    netloc = urlsplit(base).netloc
    path = f"/statuses/{client.stream}.json"
    query = urlencode({"identifier": client.identifier, **client.params})
    if client.websocket:
        key = base64.b64encode(os.urandom(16)).decode()
        head = (
            f"GET {path}?{query} HTTP/1.1\r\nHost: {netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        )
        return (head + "\r\n").encode()
    if client.stream == "filter":
        head = f"POST {path} HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        return f"{head}Content-Length: {len(query)}\r\nHost: {netloc}\r\n\r\n{query}".encode()
    return f"GET {path}?{query} HTTP/1.1\r\nHost: {netloc}\r\n\r\n".encode()


async def stream_client(client, base: str, ready: asyncio.Event) -> None:
    """Opens `client`'s stream, sets `ready` once it is accepted, and reads it until the
    connection ends (or this is cancelled)."""
    url = urlsplit(base)
    loop = asyncio.get_running_loop()
    transport, reader = await loop.create_connection(
        lambda: LineClient(client, client.websocket), url.hostname, url.port
    )
    try:
        transport.write(request(client, base))
        if await reader.opened:
            ready.set()
            await reader.closed
    finally:
        transport.close()
