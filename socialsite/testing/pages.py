"""A real HTTP server for the outbound fetcher's tests (socialsite.fetch, link cards):
started on a loopback address in a thread, answering each path with what a test put
there, and noting every request it got."""

import io
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image


@dataclass
class Page:
    """An answer: status, headers, body; `chunks` (with `pause` seconds before each) to
    send a body bit by bit without a length; `delay` seconds before any answer."""

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/html"})
    chunks: Iterator[bytes] | Callable[[], Iterator[bytes]] | None = None
    pause: float = 0.0
    delay: float = 0.0


class PageServer:
    """The server: `pages[path] = Page(...)`; `url(path)`; `requests` is every (path,
    Host header) it was asked for."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.pages: dict[str, Page] = {}
        self.requests: list[tuple[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go in separate writes: without this, Nagle and the
            # client's delayed ACK add ~40 ms to every answer.
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server.requests.append((self.path, self.headers.get("Host", "")))
                # A query string asks for the same page (a fresh URL for a cache).
                page = server.pages.get(self.path.split("?")[0], Page(b"not here", 404))
                if page.delay:
                    time.sleep(page.delay)
                try:
                    self.send_response(page.status)
                    for name, value in page.headers.items():
                        self.send_header(name, value)
                    if page.chunks is None:
                        self.send_header("Content-Length", str(len(page.body)))
                        self.end_headers()
                        self.wfile.write(page.body)
                        return
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    chunks = page.chunks() if callable(page.chunks) else page.chunks
                    for chunk in chunks:
                        time.sleep(page.pause)
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the fetcher gave up on it, as it should

        self._server = ThreadingHTTPServer((host, 0), Handler)
        self._server.daemon_threads = True
        self.host = host
        self.port = self._server.server_address[1]

    def url(self, path: str, host: str | None = None) -> str:
        return f"http://{host or self.host}:{self.port}{path}"

    def start(self) -> None:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def page_server(host: str = "127.0.0.1") -> Iterator[PageServer]:
    server = PageServer(host)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def html_page(head: str, body: str = "<p>Hello</p>") -> bytes:
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>".encode()


def jpeg_with_gps(width: int = 1200, height: int = 800) -> bytes:
    """A JPEG carrying EXIF with a GPS position and a camera, as phones write them."""
    picture = Image.new("RGB", (width, height), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0112] = 1  # Orientation
    exif.get_ifd(0x8825)[2] = (51.0, 30.0, 12.0)  # GPSLatitude
    out = io.BytesIO()
    picture.save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


def og_page(title: str = "A page", image: str = "/picture.jpg", extra: str = "") -> bytes:
    return html_page(
        f'<meta property="og:title" content="{title}">'
        '<meta property="og:description" content="What the page says about itself.">'
        '<meta property="og:site_name" content="Example News">'
        f'<meta property="og:image" content="{image}">'
        '<meta property="og:image:alt" content="A red square">'
        f"<title>Ignored when og:title is there</title>{extra}"
    )
